import { useState } from "react";
import { Alert, Button, Col, Form, Row, Spinner, Table } from "react-bootstrap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { ApiError, call, get } from "../api.ts";
import { TrashIcon } from "../app/icons.tsx";
import { notify } from "../app/Toasts.tsx";
import { ConfirmDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import type { Item } from "../resources/queries.ts";
import "texts:brokers";

/** A context source registration (ETSI GS CIM 009 5.2.9) as the broker shows it. */
interface Registration {
  id: string;
  registrationName?: string;
  endpoint: string;
  mode?: string;
  information: Array<{
    entities?: Array<{ id?: string; idPattern?: string; type: string }>;
    propertyNames?: string[];
    relationshipNames?: string[];
  }>;
}

const modes = ["inclusive", "auxiliary", "exclusive", "redirect"] as const;
const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const entitiesOf = (r: Registration) =>
  r.information.flatMap((i) =>
    (i.entities ?? []).map((e) => [e.type, e.id ?? e.idPattern].filter(Boolean).join(" ")),
  );
const attributesOf = (r: Registration) =>
  r.information.flatMap((i) => [...(i.propertyNames ?? []), ...(i.relationshipNames ?? [])]);

const emptyDraft = {
  registrationName: "",
  endpoint: "",
  type: "",
  entity: "",
  propertyNames: "",
  relationshipNames: "",
  mode: "inclusive",
};

/**
 * The context source registrations of a context broker (any implementation), on its show page:
 * the list, a delete button per registration (asked first) and a form to register another broker
 * or context source, as permitted. On a multi-tenant broker the registrations are the tenant's
 * named above the list (none: the default tenant).
 */
export function RegistrationsPanel({ broker }: { broker: Item }) {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const [tenant, setTenant] = useState("");
  const [draft, setDraft] = useState(emptyDraft);
  const [removing, setRemoving] = useState<Registration>();
  const base = `/context-brokers/${encodeURIComponent(broker.id)}/registrations`;
  const query = tenant.trim() ? { tenant: tenant.trim() } : undefined;
  const key = ["registrations", broker.id, tenant.trim()];
  const registrations = useQuery({
    queryKey: key,
    queryFn: () => get<Registration[]>(`${base}${query ? `?${new URLSearchParams(query)}` : ""}`),
    retry: false,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ["registrations", broker.id] });
  const create = useMutation({
    mutationFn: () => {
      const entity = draft.entity.trim();
      const info = {
        ...(draft.type.trim()
          ? {
              entities: [
                {
                  type: draft.type.trim(),
                  // A URI names one entity, anything else is a pattern of ids.
                  ...(entity
                    ? /^[a-z][a-z0-9+.-]*:\S+$/i.test(entity)
                      ? { id: entity }
                      : { idPattern: entity }
                    : {}),
                },
              ],
            }
          : {}),
        propertyNames: list(draft.propertyNames),
        relationshipNames: list(draft.relationshipNames),
      };
      return call<Registration>(base, {
        method: "POST",
        query,
        body: {
          registrationName: draft.registrationName,
          endpoint: draft.endpoint.trim(),
          information: [info],
          mode: draft.mode,
        },
      });
    },
    onSuccess: async ({ data }) => {
      notify(t("registrations.created", { name: data.registrationName ?? data.id }));
      setDraft(emptyDraft);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (r: Registration) => call(`${base}/${encodeURIComponent(r.id)}`, { method: "DELETE", query }),
    onSuccess: async (_r, registration) => {
      notify(t("registrations.deleted", { name: registration.registrationName ?? registration.id }));
      await refresh();
    },
  });
  const mayCreate = can.can("POST", base);
  const mayDelete = can.can("DELETE", `${base}/x`);
  const field = (name: keyof typeof emptyDraft) => ({
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });

  let body;
  if (registrations.isPending)
    body = <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />;
  else if (registrations.error instanceof ApiError && registrations.error.status === 404 && query)
    // A tenant nobody wrote to yet: nothing registered in it.
    body = <Alert variant="info">{t("registrations.noTenant", { tenant: query.tenant })}</Alert>;
  else if (registrations.isError)
    // The broker down is said in a sentence (the Connection panel above tells it too): the answer folded.
    body = <ErrorAlert error={registrations.error} folded onRetry={() => void registrations.refetch()} />;
  else if (registrations.data.length === 0) body = <Alert variant="info">{t("registrations.none")}</Alert>;
  else
    body = (
      <Table size="sm" responsive className="align-middle small" aria-label={t("registrations.title")}>
        <thead>
          <tr>
            <th scope="col">{t("registrations.name")}</th>
            <th scope="col">{t("registrations.endpoint")}</th>
            <th scope="col">{t("registrations.entities")}</th>
            <th scope="col">{t("registrations.attributes")}</th>
            <th scope="col">{t("registrations.mode")}</th>
            {mayDelete && (
              <th scope="col">
                <span className="visually-hidden">{t("registrations.actions")}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {registrations.data.map((r) => (
            <tr key={r.id}>
              <td className="text-break">
                {r.registrationName && <div>{r.registrationName}</div>}
                <code className="small">{r.id}</code>
              </td>
              <td className="text-break">{r.endpoint}</td>
              <td className="text-break">{entitiesOf(r).join(", ") || t("registrations.any")}</td>
              <td className="text-break">{attributesOf(r).join(", ") || t("registrations.all")}</td>
              <td>{r.mode ?? "inclusive"}</td>
              {mayDelete && (
                <td className="text-end">
                  <Button
                    variant="outline-danger"
                    size="sm"
                    onClick={() => setRemoving(r)}
                    disabled={remove.isPending}
                    title={t("registrations.delete", { name: r.registrationName ?? r.id })}
                    aria-label={t("registrations.delete", { name: r.registrationName ?? r.id })}
                  >
                    <TrashIcon />
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </Table>
    );

  return (
    <section className="mt-4 pt-3 border-top" aria-labelledby="registrations-panel-title">
      <h2 id="registrations-panel-title" className="h6 fw-semibold">
        {t("registrations.title")}
      </h2>
      <p className="small text-body-secondary">{t("registrations.intro")}</p>
      {/* packages/ngsi-ld profiles.ts: Scorpio's registrations are listed by the types it holds. */}
      {broker.implementationName === "scorpio" && (
        <p className="small text-body-secondary">{t("registrations.byTypesNote")}</p>
      )}
      {broker.multiTenancyEnabled === true && (
        <Form.Group className="mb-2" style={{ maxWidth: "20rem" }} controlId="registrations-tenant">
          <Form.Label className="small">{t("registrations.tenant")}</Form.Label>
          <Form.Control
            size="sm"
            value={tenant}
            placeholder={t("registrations.defaultTenant")}
            onChange={(e) => setTenant(e.target.value)}
          />
        </Form.Group>
      )}
      <ErrorAlert error={remove.error} />
      {body}
      {mayCreate && (
        <Form
          className="mt-3"
          aria-labelledby="registrations-add-title"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <h3 id="registrations-add-title" className="h6">
            {t("registrations.add")}
          </h3>
          <ErrorAlert error={create.error} />
          <Row className="g-2">
            <Form.Group as={Col} md={6} controlId="registration-endpoint">
              <Form.Label className="small">{t("registrations.endpoint")}</Form.Label>
              <Form.Control
                size="sm"
                type="url"
                required
                placeholder="http://broker.example.org:1026"
                {...field("endpoint")}
              />
              <Form.Text>{t("registrations.endpointHelp")}</Form.Text>
            </Form.Group>
            <Form.Group as={Col} md={6} controlId="registration-name">
              <Form.Label className="small">{t("registrations.name")}</Form.Label>
              <Form.Control size="sm" {...field("registrationName")} />
            </Form.Group>
            <Form.Group as={Col} md={6} controlId="registration-type">
              <Form.Label className="small">{t("registrations.type")}</Form.Label>
              <Form.Control size="sm" {...field("type")} />
            </Form.Group>
            <Form.Group as={Col} md={6} controlId="registration-entity">
              <Form.Label className="small">{t("registrations.entity")}</Form.Label>
              <Form.Control size="sm" {...field("entity")} />
              <Form.Text>{t("registrations.entityHelp")}</Form.Text>
            </Form.Group>
            <Form.Group as={Col} md={6} controlId="registration-properties">
              <Form.Label className="small">{t("registrations.propertyNames")}</Form.Label>
              <Form.Control size="sm" {...field("propertyNames")} />
            </Form.Group>
            <Form.Group as={Col} md={6} controlId="registration-relationships">
              <Form.Label className="small">{t("registrations.relationshipNames")}</Form.Label>
              <Form.Control size="sm" {...field("relationshipNames")} />
            </Form.Group>
            <Form.Group as={Col} md={6} controlId="registration-mode">
              <Form.Label className="small">{t("registrations.mode")}</Form.Label>
              <Form.Select size="sm" {...field("mode")}>
                {modes.map((m) => (
                  <option key={m} value={m}>
                    {t(`registrations.modes.${m}`)}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          </Row>
          <Button type="submit" size="sm" className="mt-2" disabled={create.isPending}>
            {t("registrations.register")}
          </Button>
        </Form>
      )}
      <ConfirmDialog
        show={!!removing}
        message={t("registrations.confirmDelete", { name: removing?.registrationName ?? removing?.id })}
        onYes={() => {
          if (removing) remove.mutate(removing);
          setRemoving(undefined);
        }}
        onNo={() => setRemoving(undefined)}
      />
    </section>
  );
}
