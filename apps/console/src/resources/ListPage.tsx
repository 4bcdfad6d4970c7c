import type { ReactNode } from "react";
import { Alert, Card, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Field, KindDefinition } from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { lineage } from "../routes.ts";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { FieldValue } from "./FieldValue.tsx";
import { useParentCrumbs, usePlace } from "./place.ts";
import { useList, type Item } from "./queries.ts";

/** A column drawn by the page rather than by the field's type (the workspace's version link). */
export type Cells = Record<string, (item: Item) => ReactNode>;

function Cell({
  kind,
  column,
  item,
  cells,
}: {
  kind: KindDefinition;
  column: string;
  item: Item;
  cells?: Cells;
}) {
  const { t } = useTranslation();
  if (cells?.[column]) return <>{cells[column](item)}</>;
  if (column === "implementation") {
    const name = item.implementationName
      ? t(`options.implementationName.${String(item.implementationName)}`)
      : "";
    return <>{`${name} ${String(item.implementationVersion ?? "")}`.trim()}</>;
  }
  const field = kind.fields.find((f) => f.name === column) as Field;
  return item[column] === undefined ? null : <FieldValue field={field} value={item[column]} />;
}

/**
 * The list page of any kind: title, '+' with store permission, rows the user may show, sorted by
 * name. A workspace-scoped list has a breadcrumb through its parents; `actions` are the kind's own
 * buttons (generate, for types); `leading` is a first column without header text (the workspaces'
 * open/close toggle) and `cells` draw some columns their own way.
 */
export function ListPage({
  kind,
  actions,
  leading,
  cells,
}: {
  kind: KindDefinition;
  actions?: ReactNode;
  leading?: { label: string; cell: (item: Item) => ReactNode };
  cells?: Cells;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const list = useList(kind);
  const { route } = usePlace(kind);
  const crumbs = useParentCrumbs(kind);
  const rows = (list.data ?? []).filter((item) => can.show(kind, item.id));
  const title = t(`kinds.${kind.kind}.many`);
  return (
    <>
      {lineage(kind).length > 1 && <Breadcrumbs trail={crumbs} />}
      <Card>
        <Card.Header className="d-flex align-items-center justify-content-between gap-2">
          <h1 className="h5 mb-0">{title}</h1>
          <div className="d-flex gap-2">
            {actions}
            {can.store(kind) && (
              <Link
                to={route("create")}
                className="btn btn-primary btn-sm"
                aria-label={`${t("common.create")}: ${t(`kinds.${kind.kind}.one`)}`}
                title={t("common.create")}
              >
                +
              </Link>
            )}
          </div>
        </Card.Header>
        <Card.Body>
          {list.isPending ? (
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
          ) : list.isError ? (
            <ErrorAlert error={list.error} />
          ) : rows.length === 0 ? (
            <Alert variant="info" className="mb-0">
              {t(`kinds.${kind.kind}.none`)}
            </Alert>
          ) : (
            <Table hover responsive className="mb-0 align-middle">
              <thead>
                <tr>
                  {leading && (
                    <th scope="col">
                      <span className="visually-hidden">{leading.label}</span>
                    </th>
                  )}
                  <th scope="col">{t("fields.name")}</th>
                  {kind.columns.map((c) => (
                    <th scope="col" key={c}>
                      {t(`fields.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((item) => (
                  <tr key={item.id}>
                    {leading && <td className="text-nowrap">{leading.cell(item)}</td>}
                    <td>
                      <Link to={route("show", item.id)}>{item.name}</Link>
                    </td>
                    {kind.columns.map((c) => (
                      <td key={c}>
                        <Cell kind={kind} column={c} item={item} cells={cells} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card.Body>
      </Card>
    </>
  );
}
