import { useState, type ReactNode } from "react";
import { Button, Card, Col, Form, Row } from "react-bootstrap";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { workspaces } from "@orrery/model";
import { call } from "../api.ts";
import { useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { useItem } from "../resources/queries.ts";
import { routeTo } from "../routes.ts";
import { topLevelProperties } from "./entityModel.ts";
import { entityKeys, paths, useDataModel } from "./entityQueries.ts";
import { entityHref, withQuery } from "./links.ts";
import { FormButtons } from "../resources/FormButtons.tsx";
import {
  accepts,
  emptyRow,
  formats,
  geometries,
  georels,
  isEmptyRow,
  newDraft,
  subscriptionBody,
  validateSubscription,
  type Subscription,
  type SubscriptionDraft,
} from "./subscriptionModel.ts";
import "texts:context-data";

/** Checkboxes over the type's property names (watched attributes, notified attributes). */
function NameChoice(props: {
  id: string;
  legend: string;
  names: string[];
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 mb-1">{props.legend}</legend>
      {props.names.length === 0 && (
        <p className="small text-body-secondary mb-0">{t("entities.noPropertyInModel")}</p>
      )}
      <div className="d-flex flex-wrap gap-3">
        {props.names.map((name) => (
          <Form.Check
            key={name}
            id={`${props.id}-${name}`}
            label={name}
            checked={props.value.includes(name)}
            onChange={(e) =>
              props.onChange(
                e.target.checked ? [...props.value, name] : props.value.filter((n) => n !== name),
              )
            }
          />
        ))}
      </div>
    </fieldset>
  );
}

/** The subscription form (subscriptions.create, query typeId). */
export function SubscriptionForm() {
  const { t } = useTranslation();
  const { workspaceId = "" } = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const model = useDataModel();
  const workspace = useItem(workspaces, workspaceId);
  const typeId = query.get("typeId") ?? undefined;
  const type = model.types.find((x) => x.id === typeId);
  const names = type ? topLevelProperties(model.properties, type.id).map((p) => p.name) : [];
  const [draft, setDraft] = useState<SubscriptionDraft | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const failure = useFailureDialog();
  const save = useMutation({
    mutationFn: (body: unknown) =>
      call<Subscription>(paths.subscriptions(workspaceId), { method: "POST", body }),
    onSuccess: () => client.invalidateQueries({ queryKey: entityKeys.subscriptions(workspaceId) }),
  });
  // The form starts once the type is known, with one entities row of that type.
  const current = draft ?? (model.isPending ? null : newDraft(type?.name));
  if (!current) return null;
  const set = (patch: Partial<SubscriptionDraft>) => setDraft({ ...current, ...patch });
  const errors = validateSubscription(current);
  const invalid = (name: string) => submitted && !!errors[name];
  const feedback = (name: string) =>
    invalid(name) && <Form.Control.Feedback type="invalid">{t(errors[name]!)}</Form.Control.Feedback>;
  const text = (
    name: keyof SubscriptionDraft,
    label: string,
    props: { type?: string; hint?: ReactNode; required?: boolean } = {},
  ) => (
    <Form.Group className="mb-3" controlId={`subscription-${name}`}>
      <Form.Label>
        {label}
        {props.required && " *"}
      </Form.Label>
      <Form.Control
        type={props.type ?? "text"}
        value={current[name] as string}
        isInvalid={invalid(name)}
        onChange={(e) => set({ [name]: e.target.value } as Partial<SubscriptionDraft>)}
      />
      {props.hint && <Form.Text>{props.hint}</Form.Text>}
      {feedback(name)}
    </Form.Group>
  );
  const select = (name: keyof SubscriptionDraft, label: string, options: readonly string[]) => (
    <Form.Group className="mb-3" controlId={`subscription-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Select
        value={current[name] as string}
        isInvalid={invalid(name)}
        onChange={(e) => set({ [name]: e.target.value } as Partial<SubscriptionDraft>)}
      >
        <option value="">{t("common.choose")}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </Form.Select>
      {feedback(name)}
    </Form.Group>
  );
  const rows = current.entities;
  const setRow = (i: number, patch: Partial<(typeof rows)[number]>) =>
    set({ entities: rows.map((row, j) => (j === i ? { ...row, ...patch } : row)) });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    save.mutate(subscriptionBody(current), {
      onSuccess: ({ data }) =>
        navigate(
          withQuery(routeTo("subscriptions.show", { workspaceId, subscriptionId: data.id }), { typeId }),
        ),
      onError: failure.show,
    });
  };
  const back = entityHref(workspaceId, typeId, undefined, "subscriptions");

  return (
    <>
      <Breadcrumbs
        trail={[
          { label: t("kinds.workspaces.many"), to: routeTo("workspaces.index") },
          { label: String(workspace.data?.data.name ?? workspaceId), to: back },
          { label: t("subscriptions.create") },
        ]}
      />
      <Link to={back} className="btn btn-outline-secondary btn-sm mb-3">
        ← {t("common.back")}
      </Link>
      {save.isError && <ErrorAlert error={save.error} />}
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0">{t("subscriptions.createTitle", { type: type?.name ?? "" })}</h1>
        </Card.Header>
        <Card.Body>
          <Form noValidate onSubmit={submit}>
            {text("subscriptionName", t("subscriptions.subscriptionName"))}
            {text("description", t("subscriptions.description"))}
            <fieldset className="mb-3">
              <legend className="form-label fs-6 mb-1">{t("subscriptions.entities")}</legend>
              {rows.map((row, i) => (
                <Row key={i} className="g-2 mb-2 align-items-end">
                  {(
                    [
                      ["id", t("subscriptions.entityId")],
                      ["idPattern", t("subscriptions.entityIdPattern")],
                      ["type", t("subscriptions.entityType")],
                    ] as const
                  ).map(([member, label]) => (
                    <Col sm key={member}>
                      <Form.Group controlId={`subscription-entity-${i}-${member}`}>
                        <Form.Label className="small mb-0">{label}</Form.Label>
                        <Form.Control
                          size="sm"
                          value={row[member]}
                          onChange={(e) => setRow(i, { [member]: e.target.value })}
                        />
                      </Form.Group>
                    </Col>
                  ))}
                  <Col xs="auto">
                    <Button
                      size="sm"
                      variant="outline-danger"
                      onClick={() => set({ entities: rows.filter((_r, j) => j !== i) })}
                      aria-label={t("subscriptions.removeEntity", { number: i + 1 })}
                    >
                      {t("common.remove")}
                    </Button>
                  </Col>
                </Row>
              ))}
              <Form.Text as="p" className="d-block">
                {t("subscriptions.typeHint")}
              </Form.Text>
              <Button
                size="sm"
                variant="outline-primary"
                disabled={rows.length > 0 && isEmptyRow(rows[rows.length - 1]!)}
                onClick={() => set({ entities: [...rows, { ...emptyRow }] })}
              >
                {t("subscriptions.addEntity")}
              </Button>
            </fieldset>
            <NameChoice
              id="watched"
              legend={t("subscriptions.watchedAttributes")}
              names={names}
              value={current.watchedAttributes}
              onChange={(watchedAttributes) => set({ watchedAttributes })}
            />
            <Row>
              <Col md>{text("timeInterval", t("subscriptions.timeInterval"), { type: "number" })}</Col>
              <Col md>{text("q", t("subscriptions.q"), { hint: t("subscriptions.qHint") })}</Col>
            </Row>
            <fieldset className="mb-3 border rounded p-2">
              <legend className="form-label fs-6 mb-1 float-none w-auto px-1">
                {t("subscriptions.geoQ")}
              </legend>
              <Row>
                <Col md>{select("geometry", t("subscriptions.geometry"), geometries)}</Col>
                <Col md>
                  <Form.Group className="mb-3" controlId="subscription-georel">
                    <Form.Label>{t("subscriptions.georel")}</Form.Label>
                    <Form.Control
                      list="subscription-georels"
                      value={current.georel}
                      isInvalid={invalid("georel")}
                      onChange={(e) => set({ georel: e.target.value })}
                    />
                    <datalist id="subscription-georels">
                      {georels.map((g) => (
                        <option key={g} value={g} />
                      ))}
                    </datalist>
                    {feedback("georel")}
                  </Form.Group>
                </Col>
              </Row>
              {text("coordinates", t("subscriptions.coordinates"), { hint: "[2.35, 48.85]" })}
              {text("geoproperty", t("subscriptions.geoproperty"))}
            </fieldset>
            <Form.Check
              className="mb-3"
              id="subscription-isActive"
              label={t("subscriptions.isActive")}
              checked={current.isActive}
              onChange={(e) => set({ isActive: e.target.checked })}
            />
            <fieldset className="mb-3 border rounded p-2">
              <legend className="form-label fs-6 mb-1 float-none w-auto px-1">
                {t("subscriptions.notification")}
              </legend>
              <NameChoice
                id="notified"
                legend={t("subscriptions.attributes")}
                names={names}
                value={current.attributes}
                onChange={(attributes) => set({ attributes })}
              />
              <Row>
                <Col md>{select("format", t("subscriptions.format"), formats)}</Col>
                <Col md>{select("accept", t("subscriptions.accept"), accepts)}</Col>
              </Row>
              {text("uri", t("subscriptions.uri"), { type: "url", required: true })}
            </fieldset>
            <Row>
              <Col md>{text("expiresAt", t("subscriptions.expiresAt"), { type: "datetime-local" })}</Col>
              <Col md>{text("throttling", t("subscriptions.throttling"), { type: "number" })}</Col>
              <Col md>{text("lang", t("subscriptions.lang"))}</Col>
            </Row>
            <FormButtons label={t("common.create")} cancel={back} />
          </Form>
        </Card.Body>
      </Card>
      {failure.dialog(t("subscriptions.creationFailed"))}
    </>
  );
}

export default SubscriptionForm;
