import { Button, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import type { Item } from "../resources/queries.ts";

export interface DataModelListProps {
  types: readonly Item[];
  properties: readonly Item[];
  hiddenGroups: ReadonlySet<string>;
  selectedTypeId?: string | null;
  typePath: (typeId: string) => string;
  onSelect: (typeId: string) => void;
}

/**
 * The data-model chart read as a table (issue 37): what a screen reader or a keyboard cannot get
 * from the drawing. One row a type of the groups shown, with its group and where each of its
 * relationships leads (the chart's arrows); "Show entities" does what choosing the node does.
 */
export function DataModelList(props: DataModelListProps) {
  const { t } = useTranslation();
  const names = new Map(props.types.map((type) => [type.id, type.name]));
  const shown = props.types
    .filter((type) => !props.hiddenGroups.has(String(type.dataModelGroup ?? "")))
    .slice()
    .sort((a, b) => a.name.localeCompare(b.name));
  const relationshipsOf = (typeId: string) =>
    props.properties
      .filter((p) => p.hasType === typeId && p.ngsiLdType === "Relationship")
      .slice()
      .sort((a, b) => a.name.localeCompare(b.name));
  /** Where a relationship leads: a type of the model, or what it names outside the model. */
  const targetOf = (p: Item) => {
    const target = String(p.relationshipType ?? "");
    if (p.relationshipTarget && target === p.hasType) return String(p.relationshipTarget);
    return names.get(target) ?? (p.relationshipTarget ? String(p.relationshipTarget) : "?");
  };
  // The group column only when the model uses groups (the demo's types have none).
  const grouped = shown.some((type) => type.dataModelGroup);
  return (
    <Table size="sm" responsive className="mb-0 align-middle" data-testid="data-model-list">
      <caption className="caption-top">{t("workspace.listCaption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("fields.name")}</th>
          {grouped && <th scope="col">{t("fields.dataModelGroup")}</th>}
          <th scope="col">{t("workspace.relationships")}</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((type) => {
          const relationships = relationshipsOf(type.id);
          const selected = type.id === props.selectedTypeId;
          return (
            <tr key={type.id} className={selected ? "table-active" : undefined}>
              <th scope="row">
                <Link to={props.typePath(type.id)} className="d-block mb-1 text-break">
                  {type.name}
                </Link>
                <Button
                  size="sm"
                  variant={selected ? "primary" : "outline-primary"}
                  aria-pressed={selected}
                  aria-label={`${t("workspace.showEntities")} (${type.name})`}
                  className="text-nowrap fw-normal"
                  onClick={() => props.onSelect(type.id)}
                >
                  {t("workspace.showEntities")}
                </Button>
              </th>
              {grouped && (
                <td>
                  {type.dataModelGroup ? t(`options.dataModelGroup.${String(type.dataModelGroup)}`) : ""}
                </td>
              )}
              <td>
                {relationships.length > 0 && (
                  <ul className="list-unstyled mb-0">
                    {relationships.map((p) => (
                      <li key={p.id}>
                        {p.name} → {targetOf(p)}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
