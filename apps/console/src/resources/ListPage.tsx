import { Alert, Card, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Field, KindDefinition } from "@orrery/model";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { kindRoute } from "../routes.ts";
import { FieldValue } from "./FieldValue.tsx";
import { useList, type Item } from "./queries.ts";

function Cell({ kind, column, item }: { kind: KindDefinition; column: string; item: Item }) {
  const { t } = useTranslation();
  if (column === "implementation") {
    const name = item.implementationName
      ? t(`options.implementationName.${String(item.implementationName)}`)
      : "";
    return <>{`${name} ${String(item.implementationVersion ?? "")}`.trim()}</>;
  }
  const field = kind.fields.find((f) => f.name === column) as Field;
  return item[column] === undefined ? null : <FieldValue field={field} value={item[column]} />;
}

/** The list page of any kind: title, '+' with store permission, rows the user may show, sorted by name. */
export function ListPage({ kind }: { kind: KindDefinition }) {
  const { t } = useTranslation();
  const can = useCan();
  const list = useList(kind);
  const rows = (list.data ?? []).filter((item) => can.show(kind, item.id));
  const title = t(`kinds.${kind.kind}.many`);
  return (
    <Card>
      <Card.Header className="d-flex align-items-center justify-content-between">
        <h1 className="h5 mb-0">{title}</h1>
        {can.store(kind) && (
          <Link
            to={kindRoute(kind, "create")}
            className="btn btn-primary btn-sm"
            aria-label={`${t("common.create")}: ${t(`kinds.${kind.kind}.one`)}`}
            title={t("common.create")}
          >
            +
          </Link>
        )}
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
                  <td>
                    <Link to={kindRoute(kind, "show", item.id)}>{item.name}</Link>
                  </td>
                  {kind.columns.map((c) => (
                    <td key={c}>
                      <Cell kind={kind} column={c} item={item} />
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
