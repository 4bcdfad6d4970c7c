import { Fragment } from "react";
import { Link, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { kindsByName, type Field } from "@orrery/model";
import { entityHref } from "../context-data/links.ts";
import { nameOf } from "../context-data/entityModel.ts";
import { useEntity } from "../context-data/entityQueries.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { JsonTree } from "../errors/JsonTree.tsx";
import { useCan } from "../permissions.ts";
import { kindRoute, placementOf } from "../routes.ts";
import { useItem, useList, type Item } from "./queries.ts";
import { useTitles } from "./titles.ts";

/** A referenced record, read from the kind's list (cached, shared by every row) when the user may list it. */
function useRecord(kindName: string, id: string | undefined) {
  const kind = kindsByName.get(kindName)!;
  const can = useCan();
  const allowed = !!id && can.show(kind, id);
  const listed = useList(kind, !!id && can.index(kind)).data?.find((item) => item.id === id);
  const { data } = useItem(kind, id ?? "", allowed && !can.index(kind));
  return { kind, allowed, record: listed ?? data?.data };
}

/** The name of a referenced record: a link with show permission, plain text without (spec section 6). */
export function ReferenceName({ kind: kindName, id }: { kind: string; id: string }) {
  const params = useParams();
  const { kind, allowed, record } = useRecord(kindName, id);
  const titles = useTitles(kind);
  const name = record ? titles(record) : id;
  // The route of a record that lives inside another (a property in its type) takes the parent from the record.
  const at = { ...params };
  for (const [field, param] of Object.entries(placementOf(kind).fromRoute ?? {}))
    if (typeof record?.[field] === "string") at[param] = record[field] as string;
  return allowed ? <Link to={kindRoute(kind, "show", id, at)}>{name}</Link> : <span>{name}</span>;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Referenced records in the order of their titles, not the order they were saved in (a data service's actions). */
function ReferenceNames({ kind: kindName, ids }: { kind: string; ids: readonly string[] }) {
  const kind = kindsByName.get(kindName)!;
  const can = useCan();
  const list = useList(kind, can.index(kind)).data ?? [];
  const titles = useTitles(kind);
  const titleOf = (id: string) => {
    const record = list.find((item) => item.id === id);
    return record ? titles(record) : id;
  };
  const sorted = [...ids].sort((a, b) => collator.compare(titleOf(a), titleOf(b)));
  return (
    <ul className="list-unstyled mb-0">
      {sorted.map((id) => (
        <li key={id}>
          <ReferenceName kind={kindName} id={id} />
        </li>
      ))}
    </ul>
  );
}

/**
 * An entity of the workspace's broker named by a record (a scope entity): a link to it in the
 * workspace view, with its name once read; a failure to read it shows in the error alert.
 */
function EntityValue({ id, typeId }: { id: string; typeId: string | undefined }) {
  const { workspaceId = "" } = useParams();
  const entity = useEntity(workspaceId, id);
  const name = nameOf(entity.data);
  return (
    <>
      <Link to={entityHref(workspaceId, typeId, id)} className="text-break">
        {id}
      </Link>
      {name && <span className="text-body-secondary"> ({name})</span>}
      <ErrorAlert error={entity.error} className="mt-2 mb-0" />
    </>
  );
}

/** One field's value as the show page and the list display it; `item` is the record it belongs to. */
export function FieldValue({ field, value, item }: { field: Field; value: unknown; item?: Item }) {
  const { t } = useTranslation();
  if (field.entityOf && typeof value === "string")
    return <EntityValue id={value} typeId={item?.[field.entityOf] as string | undefined} />;
  if (field.secret)
    return <span>{(value as { set?: boolean })?.set ? t("common.set") : t("common.notSet")}</span>;
  switch (field.input) {
    case "boolean":
      return <span>{t(value ? "common.true" : "common.false")}</span>;
    case "enum":
      return <span>{t(`options.${field.name}.${String(value)}`)}</span>;
    case "reference":
      return <ReferenceName kind={field.kind} id={String(value)} />;
    case "references":
      return <ReferenceNames kind={field.kind} ids={value as string[]} />;
    case "url":
      return (
        <a href={String(value)} target="_blank" rel="noreferrer noopener" className="text-break">
          {String(value)}
        </a>
      );
    case "instant":
      if (value === field.never) return <span>{t("common.never")}</span>;
      return (
        <time dateTime={new Date(Number(value) * 1000).toISOString()}>
          {new Date(Number(value) * 1000).toISOString()}
        </time>
      );
    case "json":
      return value === null ? <span>{t("common.none")}</span> : <JsonTree value={value as object} />;
    case "point":
      return <span>{(value as number[]).map((n) => Math.round(n)).join(", ")}</span>;
    case "markup":
      // Shown as code here; the chart draws the (server-sanitised) icon.
      return <code className="small text-break">{String(value).slice(0, 200)}</code>;
    case "headers":
      return (
        <table className="table table-sm mb-0">
          <tbody>
            {Object.entries(value as Record<string, unknown>).map(([name, v]) => (
              <tr key={name}>
                <th scope="row" className="fw-normal font-monospace">
                  {name}
                </th>
                <td className="text-break">
                  {typeof v === "string" ? v : <em>{t("headers.secretValue")}</em>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    case "strings":
      return (
        <span className="text-break">
          {(value as string[]).map((entry, i) => (
            <Fragment key={i}>
              {i > 0 && ", "}
              {entry === "" && field.blank !== undefined ? (
                <em>{t(field.blank)}</em>
              ) : (
                <span className="font-monospace">{entry}</span>
              )}
            </Fragment>
          ))}
        </span>
      );
    case "lines":
      return (
        <ol className="mb-0 ps-3">
          {(value as string[]).map((line, i) => (
            <li key={i} className="font-monospace small text-break">
              {line}
            </li>
          ))}
        </ol>
      );
    default:
      return (
        <span className="text-break" style={{ whiteSpace: "pre-wrap" }}>
          {String(value)}
        </span>
      );
  }
}
