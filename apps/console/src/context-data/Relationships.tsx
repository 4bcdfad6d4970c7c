import { useState } from "react";
import { Card, Nav, Spinner, Table } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useQueries } from "@tanstack/react-query";
import { ApiError, get } from "../api.ts";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import {
  instancesOf,
  nameOf,
  objectsOf,
  type Entity,
  type PropertyRecord,
  type TypeRecord,
} from "./entityModel.ts";
import { entityKeys, fetchEntities, paths } from "./entityQueries.ts";
import { entityHref } from "./links.ts";

const isMissing = (error: unknown) => error instanceof ApiError && error.status === 404;

/** How many entities pointing to this one a type lists (the count says how many more there are). */
const DESCENDING_LIMIT = 100;

interface Group {
  typeId: string;
  /** `missing`: a target that does not exist (the broker answered 404). */
  entities: Array<{ id: string; name?: string; missing?: boolean }>;
  more?: number;
}

/** Entities grouped by type, one pill per type (the first that has entities active), each a name | id table. */
function RelationshipGroups(props: {
  workspaceId: string;
  groups: Group[];
  types: TypeRecord[];
  label: string;
}) {
  const { t } = useTranslation();
  const [active, setActive] = useState<string | null>(null);
  const current =
    props.groups.find((g) => g.typeId === active) ??
    props.groups.find((g) => g.entities.length > 0) ??
    props.groups[0];
  if (!current) return <p className="text-body-secondary small mb-0">{t("entities.noRelationship")}</p>;
  const typeName = (id: string) => props.types.find((type) => type.id === id)?.name ?? id;
  return (
    <>
      <Nav as="nav" variant="pills" className="mb-2 flex-wrap" aria-label={props.label}>
        {props.groups.map((group) => (
          <Nav.Item key={group.typeId}>
            <Nav.Link
              as="button"
              type="button"
              active={group.typeId === current.typeId}
              onClick={() => setActive(group.typeId)}
            >
              {typeName(group.typeId)} ({group.entities.length + (group.more ?? 0)})
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      <Table size="sm" className="font-monospace small mb-0" aria-label={typeName(current.typeId)}>
        <thead>
          <tr>
            <th scope="col">{t("entities.name")}</th>
            <th scope="col">{t("entities.id")}</th>
          </tr>
        </thead>
        <tbody>
          {current.entities.map((entity) => (
            <tr key={entity.id}>
              <td className="text-break">{entity.name ?? ""}</td>
              <td className="text-break">
                {entity.missing ? (
                  <>
                    <span className="text-body-secondary">{entity.id}</span>{" "}
                    <span className="badge text-bg-warning">{t("entities.missingTarget")}</span>
                  </>
                ) : (
                  <Link to={entityHref(props.workspaceId, current.typeId, entity.id)}>{entity.id}</Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {!!current.more && (
        <p className="small text-body-secondary mt-1 mb-0">
          {t("entities.moreRelated", { count: current.more })}
        </p>
      )}
    </>
  );
}

/**
 * What this entity points to (ascending) and what points to it (descending), loaded in parallel:
 * each target entity, and one query per type and Relationship property targeting this type.
 * A failed request shows its error above the groups it could not fill.
 */
export function Relationships(props: {
  workspaceId: string;
  entity: Entity;
  typeId: string;
  types: TypeRecord[];
  properties: PropertyRecord[];
}) {
  const { t } = useTranslation();
  const { workspaceId, entity, typeId, types, properties } = props;

  // Ascending: the entity's Relationship attributes (and Relationship sub-properties), every instance.
  const byId = new Map(properties.map((p) => [p.id, p]));
  const targets: Array<{ id: string; typeId: string }> = [];
  for (const property of properties) {
    if (property.hasType !== typeId || property.ngsiLdType !== "Relationship" || !property.relationshipType)
      continue;
    const parent = property.hasProperty ? byId.get(property.hasProperty) : undefined;
    const instances = parent
      ? instancesOf(entity[parent.name]).flatMap((i) => instancesOf(i[property.name]))
      : instancesOf(entity[property.name]);
    for (const instance of instances)
      for (const id of objectsOf(instance))
        if (!targets.some((x) => x.id === id && x.typeId === property.relationshipType))
          targets.push({ id, typeId: property.relationshipType });
  }
  const ascending = useQueries({
    queries: targets.map((target) => ({
      queryKey: entityKeys.item(workspaceId, target.id),
      queryFn: () => get<Entity>(paths.entity(workspaceId, target.id)),
    })),
  });

  // Descending: entities of any type whose top-level Relationship property targets this type and this entity.
  const sources = properties.filter(
    (p) => !p.hasProperty && p.ngsiLdType === "Relationship" && p.relationshipType === typeId,
  );
  const sourceQueries = sources.flatMap((property) => {
    const type = types.find((x) => x.id === property.hasType);
    return type ? [{ property, type }] : [];
  });
  const descending = useQueries({
    queries: sourceQueries.map(({ property, type }) => {
      const query = {
        type: type.name,
        q: `${property.name}=="${entity.id}"`,
        order: "name",
        limit: String(DESCENDING_LIMIT),
        count: "true",
      };
      return {
        queryKey: entityKeys.list(workspaceId, query),
        queryFn: () => fetchEntities(workspaceId, query),
      };
    }),
  });

  const ascendingGroups: Group[] = [];
  targets.forEach((target, i) => {
    const result = ascending[i]!;
    let group = ascendingGroups.find((g) => g.typeId === target.typeId);
    if (!group) ascendingGroups.push((group = { typeId: target.typeId, entities: [] }));
    // A target that could not be read is still listed by its id; one that does not exist is marked so.
    group.entities.push({ id: target.id, name: nameOf(result.data), missing: isMissing(result.error) });
  });
  const descendingGroups: Group[] = [];
  sourceQueries.forEach(({ type }, i) => {
    const page = descending[i]!.data;
    if (!page) return;
    let group = descendingGroups.find((g) => g.typeId === type.id);
    if (!group) descendingGroups.push((group = { typeId: type.id, entities: [] }));
    for (const e of page.entities)
      if (!group.entities.some((x) => x.id === e.id)) group.entities.push({ id: e.id, name: nameOf(e) });
    if (page.total !== undefined && page.total > page.entities.length)
      group.more = (group.more ?? 0) + page.total - page.entities.length;
  });
  const ascendingError = ascending.find((q) => q.isError && !isMissing(q.error))?.error;
  const descendingError = descending.find((q) => q.isError)?.error;
  const loading = (list: Array<{ isPending: boolean }>) =>
    list.some((q) => q.isPending) && (
      <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
    );

  return (
    <>
      <Card className="mt-3">
        <Card.Header>
          <h3 className="h6 mb-0">{t("entities.ascending")}</h3>
        </Card.Header>
        <Card.Body>
          {ascendingError && <ErrorAlert error={ascendingError} />}
          {loading(ascending)}
          <RelationshipGroups
            workspaceId={workspaceId}
            groups={ascendingGroups}
            types={types}
            label={t("entities.ascending")}
          />
        </Card.Body>
      </Card>
      <Card className="mt-3">
        <Card.Header>
          <h3 className="h6 mb-0">{t("entities.descending")}</h3>
        </Card.Header>
        <Card.Body>
          {descendingError && <ErrorAlert error={descendingError} />}
          {loading(descending)}
          {descending.every((q) => !q.isPending) || descendingGroups.length > 0 ? (
            <RelationshipGroups
              workspaceId={workspaceId}
              groups={descendingGroups}
              types={types}
              label={t("entities.descending")}
            />
          ) : null}
        </Card.Body>
      </Card>
    </>
  );
}
