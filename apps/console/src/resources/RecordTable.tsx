import type { ReactNode } from "react";
import { Table } from "react-bootstrap";
import { Link } from "react-router";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { Field, KindDefinition } from "@orrery/model";
import { FieldValue, Title } from "./FieldValue.tsx";
import type { Item } from "./queries.ts";

/** A column drawn by the page rather than by the field's type (the workspace's version link). */
export type Cells = Record<string, (item: Item) => ReactNode>;

/**
 * One cell. Plain values are written here with the table's `t`: a hook per cell (2,000 for a list
 * of 1,000 brokers) was a good part of the list's first render. References and the like keep
 * their component.
 */
function cell(kind: KindDefinition, column: string, item: Item, t: TFunction, cells?: Cells): ReactNode {
  if (cells?.[column]) return cells[column](item);
  if (column === "implementation") {
    const name = item.implementationName
      ? t(`options.implementationName.${String(item.implementationName)}`)
      : "";
    return `${name} ${String(item.implementationVersion ?? "")}`.trim();
  }
  const value = item[column];
  if (value === undefined) return null;
  const field = kind.fields.find((f) => f.name === column) as Field;
  if (field.input === "enum") return t(`options.${field.name}.${String(value)}`);
  if (field.input === "text" || field.input === "integer") return String(value);
  return <FieldValue field={field} value={value} />;
}

/** What a record is called: its name, or, without one (an offering, an unnamed data service), its description or id. */
export const titleOf = (item: Item): string =>
  (item.name as string | undefined) ?? (item.description as string | undefined) ?? item.id;

/** The '+' of a list: only rendered by callers with store permission. */
export function CreateButton({ kind, to }: { kind: KindDefinition; to: string }) {
  const { t } = useTranslation();
  return (
    <Link
      to={to}
      className="btn btn-primary btn-sm"
      aria-label={`${t("common.labelled", { label: t("common.create") })}${t(`kinds.${kind.kind}.one`)}`}
      title={t("common.create")}
    >
      +
    </Link>
  );
}

/**
 * The table of a list of records: name (a link to the show page, or a full name such as
 * "address.streetAddress") then the kind's columns; `leading` is a first column without header text
 * (the workspaces' open/close toggle) and `cells` draw some columns their own way.
 */
export function RecordTable({
  kind,
  rows,
  showPath,
  linked = () => true,
  leading,
  cells,
}: {
  kind: KindDefinition;
  rows: Array<{ item: Item; name?: string }>;
  showPath: (id: string) => string;
  /** Whether a record's name links to its page (show permission); plain text otherwise. */
  linked?: (id: string) => boolean;
  leading?: { label: string; cell: (item: Item) => ReactNode };
  cells?: Cells;
}) {
  const { t } = useTranslation();
  return (
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
        {rows.map(({ item, name }) => (
          <tr key={item.id}>
            {leading && <td className="text-nowrap">{leading.cell(item)}</td>}
            <td className="text-break">
              {linked(item.id) ? (
                <Link to={showPath(item.id)}>{name ?? <Title kind={kind} item={item} />}</Link>
              ) : (
                (name ?? <Title kind={kind} item={item} />)
              )}
            </td>
            {kind.columns.map((c) => (
              <td key={c}>{cell(kind, c, item, t, cells)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
