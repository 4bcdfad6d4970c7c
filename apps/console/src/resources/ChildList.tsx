import type { ReactNode } from "react";
import { Alert, Card, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Field, KindDefinition } from "@orrery/model";
import { useCan } from "../permissions.ts";
import { placementOf } from "../routes.ts";
import { FieldValue } from "./FieldValue.tsx";
import { usePlace } from "./place.ts";
import { useList, type Item } from "./queries.ts";

/** The reference of a kind to itself (a property of a property): it nests records inside one another. */
export const selfReference = (kind: KindDefinition) =>
  kind.fields.find((f) => f.input === "reference" && f.kind === kind.kind)?.name;

/** "address.streetAddress": the chain of names from the outermost parent down (spec section 3). */
export function fullName(kind: KindDefinition, item: Item, all: readonly Item[]): string {
  const field = selfReference(kind);
  const names = [item.name];
  const seen = new Set([item.id]);
  let parentId = field ? (item[field] as string | undefined) : undefined;
  while (parentId && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = all.find((i) => i.id === parentId);
    if (!parent) break;
    names.unshift(parent.name);
    parentId = parent[field!] as string | undefined;
  }
  return names.join(".");
}

/**
 * The records of `child` that belong to the shown `parent` item (a type's properties), with an add
 * button; `actions` are the kind's own buttons beside it (a type's properties import).
 */
export function ChildList({
  parent,
  child,
  parentId,
  actions,
}: {
  parent: KindDefinition;
  child: KindDefinition;
  parentId: string;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const { route } = usePlace(child);
  const list = useList(child);
  const link = Object.entries(placementOf(child).fromRoute ?? {}).find(
    ([, param]) => param === placementOf(parent).param,
  )?.[0];
  const all = list.data ?? [];
  const rows = all
    .filter((item) => link && item[link] === parentId && can.show(child, item.id))
    .map((item) => ({ item, name: fullName(child, item, all) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Card className="mt-3">
      <Card.Header className="d-flex align-items-center justify-content-between gap-2">
        <h2 className="h6 mb-0">{t(`kinds.${child.kind}.many`)}</h2>
        <div className="d-flex gap-2">
          {actions}
          {can.store(child) && (
            <Link
              to={route("create")}
              className="btn btn-primary btn-sm"
              aria-label={`${t("common.create")}: ${t(`kinds.${child.kind}.one`)}`}
              title={t("common.create")}
            >
              +
            </Link>
          )}
        </div>
      </Card.Header>
      <Card.Body>
        {list.isSuccess && rows.length === 0 ? (
          <Alert variant="info" className="mb-0">
            {t(`kinds.${child.kind}.none`)}
          </Alert>
        ) : (
          <Table hover responsive className="mb-0 align-middle">
            <thead>
              <tr>
                <th scope="col">{t("fields.name")}</th>
                {child.columns.map((c) => (
                  <th scope="col" key={c}>
                    {t(`fields.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ item, name }) => (
                <tr key={item.id}>
                  <td className="text-break">
                    <Link to={route("show", item.id)}>{name}</Link>
                  </td>
                  {child.columns.map((c) => (
                    <td key={c}>
                      {item[c] !== undefined && (
                        <FieldValue field={child.fields.find((f) => f.name === c) as Field} value={item[c]} />
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
