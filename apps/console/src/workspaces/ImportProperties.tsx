import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert, Badge, Button, Card, Form, InputGroup, Table } from "react-bootstrap";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { properties, reservedAttributeNames, types } from "@orrery/model";
import { ApiError, call } from "../api.ts";
import { useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { useParentCrumbs } from "../resources/place.ts";
import { recordKeys, useItem, useList } from "../resources/queries.ts";
import { kindRoute } from "../routes.ts";
import { notify } from "../app/Toasts.tsx";

/** One property of a Smart Data Models model, as the API's proxy reads it. */
export interface Candidate {
  name: string;
  description?: string;
  url?: string;
  ngsiLdType: string;
  propertyNgsiLdValueType?: string;
  geoPropertyNgsiLdType?: string;
}

interface Model {
  typeName: string;
  description?: string;
  properties: Candidate[];
}

/** The server's errors ("properties.2.name") by the name of the property they concern. */
function errorsByName(error: unknown, sent: readonly Candidate[]): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  if (!(error instanceof ApiError)) return byName;
  for (const e of error.body.errors ?? []) {
    const match = /^properties\.(\d+)(?:\.(.*))?$/.exec(e.path);
    const name = match ? (sent[Number(match[1])]?.name ?? e.path) : e.path;
    const field = match?.[2] && match[2] !== "name" ? `${match[2]}: ` : "";
    byName.set(name, [...(byName.get(name) ?? []), `${field}${e.message}`]);
  }
  return byName;
}

/**
 * properties.import (workspaceId, typeId): the model's definition is read through the API's proxy
 * from the type's standard data model URL (or another), its properties listed with the names the
 * type already has highlighted and disabled, and the selection imported in one request, all or
 * nothing. Success goes back to the type; a failure lists the errors per property.
 */
export function ImportProperties() {
  const { t } = useTranslation();
  const { workspaceId = "", typeId = "" } = useParams();
  const navigate = useNavigate();
  const can = useCan();
  const client = useQueryClient();
  const crumbs = useParentCrumbs(properties);
  const type = useItem(types, typeId);
  const list = useList(properties);
  const typeData = type.data?.data;
  const [url, setUrl] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const failure = useFailureDialog();
  const shownUrl = url ?? String(typeData?.standardDataModelDefinitionUrl ?? "");
  const params = { workspaceId, typeId };
  const typePage = kindRoute(types, "show", typeId, params);

  const read = useMutation({
    mutationFn: (address: string) => call<Model>("/proxies/smart-data-models", { query: { url: address } }),
    onSuccess: () => setSelected(new Set()),
  });
  const importing = useMutation({
    mutationFn: (chosen: Candidate[]) =>
      call<{ created: Array<{ id: string; name: string }> }>(`/workspace/${workspaceId}/properties/import`, {
        method: "POST",
        body: { typeId, properties: chosen },
      }),
    onSuccess: async (_result, chosen) => {
      await Promise.all(
        ["properties", "workspaces"].map((kind) =>
          client.invalidateQueries({ queryKey: recordKeys.kind(kind) }),
        ),
      );
      notify(t("properties.imported", { count: chosen.length, type: typeData?.name ?? "" }));
      navigate(typePage);
    },
    onError: failure.show,
  });

  const existing = new Set((list.data ?? []).filter((p) => p.hasType === typeId).map((p) => String(p.name)));
  const typeList = useList(types);
  // What the API would refuse, said before the import: a name NGSI-LD keeps, or a name the
  // workspace's @context already maps to another URL (one term, one IRI).
  const clashOf = (c: Candidate): string | undefined => {
    if (Object.hasOwn(reservedAttributeNames, c.name)) return t("validation.reserved", { name: c.name });
    const other = [...(typeList.data ?? []), ...(list.data ?? [])].find(
      (r) => r.name === c.name && r.hasType !== typeId && c.url !== undefined && r.url !== c.url,
    );
    return other ? t("properties.urlClash", { name: c.name, url: String(other.url ?? "-") }) : undefined;
  };
  const candidates = read.data?.data.properties ?? [];
  const selectable = candidates.filter((c) => !existing.has(c.name) && !clashOf(c));
  const chosen = selectable.filter((c) => selected.has(c.name));
  const mayStore = can.store(properties);
  const errors = errorsByName(importing.error, importing.variables ?? []);

  const onRead = (event: FormEvent) => {
    event.preventDefault();
    importing.reset();
    if (shownUrl.trim()) read.mutate(shownUrl.trim());
  };
  const toggle = (name: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(name);
    else next.delete(name);
    setSelected(next);
  };
  const valueType = (c: Candidate) =>
    c.ngsiLdType === "GeoProperty"
      ? c.geoPropertyNgsiLdType
      : c.ngsiLdType === "Property"
        ? c.propertyNgsiLdValueType
        : undefined;

  return (
    <>
      <Breadcrumbs trail={[...crumbs, { label: t("properties.import") }]} />
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0 text-break">
            {t("properties.importTitle", { type: typeData?.name ?? typeId })}
          </h1>
        </Card.Header>
        <Card.Body>
          <Form onSubmit={onRead} noValidate>
            <Form.Label htmlFor="definition-url">{t("fields.standardDataModelDefinitionUrl")}</Form.Label>
            <InputGroup>
              <Form.Control
                id="definition-url"
                type="url"
                value={shownUrl}
                onChange={(e) => setUrl(e.target.value)}
                placeholder="https://raw.githubusercontent.com/smart-data-models/…/model.yaml"
              />
              <Button type="submit" variant="outline-primary" disabled={!shownUrl.trim()}>
                {t("properties.read")}
              </Button>
            </InputGroup>
            <Form.Text>{t("properties.readHelp")}</Form.Text>
          </Form>
          <div className="mt-3">
            <ErrorAlert error={read.error} />
          </div>
          {read.isSuccess && (
            <>
              {read.data.data.description && <p className="mt-3">{read.data.data.description}</p>}
              {candidates.length === 0 ? (
                <Alert variant="info" className="mt-3 mb-0">
                  {t("kinds.properties.none")}
                </Alert>
              ) : (
                <>
                  <div className="d-flex flex-wrap gap-2 my-3">
                    <Button
                      variant="outline-secondary"
                      size="sm"
                      disabled={!mayStore}
                      onClick={() => setSelected(new Set(selectable.map((c) => c.name)))}
                    >
                      {t("properties.selectAll")}
                    </Button>
                    <Button
                      variant="outline-secondary"
                      size="sm"
                      disabled={!mayStore}
                      onClick={() => setSelected(new Set())}
                    >
                      {t("properties.selectNone")}
                    </Button>
                  </div>
                  {errors.size > 0 && (
                    <Alert variant="danger" data-testid="import-errors">
                      <p className="mb-1">{t("properties.importFailed")}</p>
                      <ul className="mb-0">
                        {[...errors].map(([name, messages]) => (
                          <li key={name} className="text-break">
                            <strong>{name}</strong>: {messages.join("; ")}
                          </li>
                        ))}
                      </ul>
                    </Alert>
                  )}
                  <ErrorAlert error={importing.error} />
                  <Table hover responsive className="align-middle">
                    <thead>
                      <tr>
                        <th scope="col">
                          <span className="visually-hidden">{t("properties.selected")}</span>
                        </th>
                        <th scope="col">{t("fields.name")}</th>
                        <th scope="col">{t("fields.description")}</th>
                        <th scope="col">{t("fields.ngsiLdType")}</th>
                        <th scope="col">{t("properties.valueOrGeometryType")}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {candidates.map((c) => {
                        const exists = existing.has(c.name);
                        const clash = exists ? undefined : clashOf(c);
                        const problems = errors.get(c.name);
                        return (
                          <tr
                            key={c.name}
                            className={
                              exists || clash ? "table-warning" : problems ? "table-danger" : undefined
                            }
                            data-exists={exists || undefined}
                          >
                            <td>
                              <Form.Check
                                id={`import-${c.name}`}
                                aria-label={c.name}
                                checked={!exists && !clash && selected.has(c.name)}
                                disabled={exists || !!clash || !mayStore}
                                onChange={(e) => toggle(c.name, e.target.checked)}
                              />
                            </td>
                            <td className="text-break">
                              <label htmlFor={`import-${c.name}`} className="fw-semibold">
                                {c.name}
                              </label>
                              {exists && (
                                <Badge bg="warning" text="dark" className="ms-2">
                                  {t("properties.alreadyExists")}
                                </Badge>
                              )}
                              {clash && <div className="small text-warning-emphasis">{clash}</div>}
                              {problems && <div className="small text-danger">{problems.join("; ")}</div>}
                            </td>
                            <td className="small text-break">{c.description}</td>
                            <td>{c.ngsiLdType}</td>
                            <td>{valueType(c)}</td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </Table>
                  <div className="d-flex gap-2 align-items-center">
                    <Button
                      disabled={chosen.length === 0 || !mayStore}
                      onClick={() => importing.mutate(chosen)}
                    >
                      {t("properties.importSelected", { count: chosen.length })}
                    </Button>
                    <Link to={typePage} className="btn btn-outline-secondary">
                      {t("common.cancel")}
                    </Link>
                  </div>
                </>
              )}
            </>
          )}
        </Card.Body>
      </Card>
      {failure.dialog(t("properties.importFailed"), explain(importing.error, t))}
    </>
  );
}
