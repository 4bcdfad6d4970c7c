import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation, type TFunction } from "../i18n/index.ts";
import { soleTitleField, type Field, type KindDefinition } from "@orrery/model";
import { FieldValue } from "./FieldValue.tsx";
import { useTitles } from "./titles.ts";
import { labelOf } from "./fieldLabel.ts";
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
  if (column === "id") return <code className="small text-break">{item.id}</code>;
  const value = item[column];
  if (value === undefined) return null;
  const field = kind.fields.find((f) => f.name === column) as Field;
  if (field.input === "enum") return t(`options.${field.name}.${String(value)}`);
  if (field.input === "text" || field.input === "integer" || field.input === "number") return String(value);
  return <FieldValue field={field} value={value} />;
}

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

/** The fields a column can be sorted by: those whose value is its own text. */
const sortable = (field: Field | undefined) =>
  !!field &&
  ["text", "textarea", "integer", "number", "enum", "boolean", "instant", "url"].includes(field.input);

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
const compareValues = (a: unknown, b: unknown) =>
  a === undefined || a === null
    ? b === undefined || b === null
      ? 0
      : 1
    : b === undefined || b === null
      ? -1
      : typeof a === "number" && typeof b === "number"
        ? a - b
        : collator.compare(String(a), String(b));

/** Lists longer than this offer a search box. */
const SEARCH_FROM = 6;
/** Rows drawn at first, and more at each "Show more": a list of thousands stays quick. */
export const PAGE = 100;

/**
 * The table of a list of records: name (a link to the show page, or a full name such as
 * "address.streetAddress") then the kind's columns; `leading` is a first column without header text
 * (the workspaces' open/close toggle) and `cells` draw some columns their own way. Sorted by name
 * (spec section 9); a click on a header sorts by that column, again the other way; a long list
 * has a search box over its names and text columns.
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
  const [sort, setSort] = useState<{ column: string; descending: boolean }>({
    column: kind.orderedBy ?? "name",
    descending: false,
  });
  const [search, setSearch] = useState("");
  const [limit, setLimit] = useState(PAGE);
  const fieldOf = (column: string) => kind.fields.find((f) => f.name === column);
  // A kind titled by one of its fields (a contract by its stakeholder) shows it once, as the first column.
  const titledBy = soleTitleField(kind);
  const columns = kind.columns.filter((c) => c !== titledBy);
  const titles = useTitles(kind);
  const nameOf = ({ item, name }: { item: Item; name?: string }) => name ?? titles(item);
  const valueOf = (row: { item: Item; name?: string }, column: string) =>
    column === "name"
      ? nameOf(row)
      : column === "implementation"
        ? `${String(row.item.implementationName ?? "")} ${String(row.item.implementationVersion ?? "")}`
        : row.item[column];
  const canSort = (column: string) =>
    column === "name" ||
    column === "id" ||
    column === "implementation" ||
    (!cells?.[column] && sortable(fieldOf(column)));
  const needle = search.trim().toLowerCase();
  const shown = rows
    .filter(
      (row) =>
        !needle ||
        ["name", ...columns.filter(canSort)].some((c) =>
          String(valueOf(row, c) ?? "")
            .toLowerCase()
            .includes(needle),
        ),
    )
    .sort((a, b) => {
      const order =
        compareValues(valueOf(a, sort.column), valueOf(b, sort.column)) ||
        compareValues(nameOf(a), nameOf(b));
      return sort.descending ? -order : order;
    });
  const header = (column: string) => {
    const named = column === "name" ? (titledBy ?? column) : column;
    const field = fieldOf(named);
    const label = field ? labelOf(t, field) : t(`fields.${named}`);
    if (!canSort(column))
      return (
        <th scope="col" key={column}>
          {label}
        </th>
      );
    const active = sort.column === column;
    return (
      <th
        scope="col"
        key={column}
        aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}
      >
        <button
          type="button"
          className="btn btn-link p-0 fw-bold text-reset text-decoration-none"
          onClick={() => setSort({ column, descending: active && !sort.descending })}
        >
          {label}
          <span aria-hidden="true" className="ms-1 text-body-secondary">
            {active ? (sort.descending ? "▼" : "▲") : "↕"}
          </span>
        </button>
      </th>
    );
  };
  return (
    <>
      {rows.length >= SEARCH_FROM && (
        <input
          type="search"
          className="form-control form-control-sm mb-2"
          style={{ maxWidth: "22rem" }}
          placeholder={t("common.searchPlaceholder")}
          aria-label={t("common.searchIn", { what: t(`kinds.${kind.kind}.many`) })}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      )}
      <div className="table-responsive">
        <table className="table table-hover mb-0 align-middle">
          <thead>
            <tr>
              {leading && (
                <th scope="col">
                  <span className="visually-hidden">{leading.label}</span>
                </th>
              )}
              {header("name")}
              {columns.map(header)}
            </tr>
          </thead>
          <tbody>
            {shown.slice(0, limit).map((row) => (
              <tr key={row.item.id}>
                {leading && <td className="text-nowrap">{leading.cell(row.item)}</td>}
                <td className="text-break">
                  {linked(row.item.id) ? <Link to={showPath(row.item.id)}>{nameOf(row)}</Link> : nameOf(row)}
                </td>
                {columns.map((c) => (
                  <td key={c}>{cell(kind, c, row.item, t, cells)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {needle && shown.length === 0 && (
        <p className="small text-body-secondary mt-2 mb-0">{t("common.noMatch")}</p>
      )}
      <ShowMore limit={limit} total={shown.length} onMore={() => setLimit(limit + PAGE)} className="mt-2" />
    </>
  );
}

/** "Show more" under a list drawn PAGE rows at a time: nothing once every row is shown. */
export function ShowMore({
  limit,
  total,
  onMore,
  className = "",
}: {
  limit: number;
  total: number;
  onMore: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  if (total <= limit) return null;
  return (
    <button type="button" className={`btn btn-outline-secondary btn-sm ${className}`.trim()} onClick={onMore}>
      {t("common.showMore", { shown: limit, total })}
    </button>
  );
}
