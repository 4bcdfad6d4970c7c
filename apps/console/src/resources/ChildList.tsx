import type { ReactNode } from "react";
import { Alert, Card } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { recordTitle, type KindDefinition } from "@orrery/model";
import { useCan } from "../permissions.ts";
import { placementOf } from "../routes.ts";
import { usePlace } from "./place.ts";
import { useList, type Item } from "./queries.ts";
import { CreateButton, RecordTable } from "./RecordTable.tsx";

/** The reference of a kind to itself (a property of a property): it nests records inside one another. */
export const selfReference = (kind: KindDefinition) =>
  kind.fields.find((f) => f.input === "reference" && f.kind === kind.kind)?.name;

/** "address.streetAddress": the chain of names from the outermost parent down (spec section 3). */
export function fullName(kind: KindDefinition, item: Item, all: readonly Item[]): string {
  const field = selfReference(kind);
  const names = [recordTitle(kind, item)];
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
    .filter((item) => link && item[link] === parentId && can.listed(child, item.id))
    .map((item) => ({ item, sortKey: fullName(child, item, all) }))
    .sort((a, b) => a.sortKey.localeCompare(b.sortKey))
    // Nested records go by their full name; the others by their title (an access, by its data service).
    .map(({ item, sortKey }) => ({ item, name: selfReference(child) ? sortKey : undefined }));
  return (
    <Card className="mt-3">
      <Card.Header className="d-flex align-items-center justify-content-between gap-2">
        <h2 className="h6 mb-0">{t(`kinds.${child.kind}.many`)}</h2>
        <div className="d-flex gap-2">
          {actions}
          {can.store(child) && <CreateButton kind={child} to={route("create")} />}
        </div>
      </Card.Header>
      <Card.Body>
        {list.isSuccess && rows.length === 0 ? (
          <Alert variant="info" className="mb-0">
            {t(`kinds.${child.kind}.none`)}
          </Alert>
        ) : (
          <RecordTable
            kind={child}
            rows={rows}
            showPath={(id) => route("show", id)}
            linked={(id) => can.show(child, id)}
          />
        )}
      </Card.Body>
    </Card>
  );
}
