import { useState, type FormEvent } from "react";
import { Alert, Button, Card, Col, Form, Row } from "react-bootstrap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { services } from "@orrery/model";
import { ApiError, call, get } from "../api.ts";
import { notify } from "../app/Toasts.tsx";
import { useConfirmedDelete, useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { Breadcrumbs } from "../resources/Breadcrumbs.tsx";
import { useItem } from "../resources/queries.ts";
import { kindRoute } from "../routes.ts";
import {
  configDraft,
  configOf,
  newConfig,
  newCredential,
  type ConfigDraft,
  type CredentialDraft,
} from "./credentialModel.ts";
import { AddButton, patchAt, RemoveButton, SelectField, TextField, withoutAt } from "./DraftFields.tsx";
import { Loading } from "./FdscPages.tsx";
import "texts:fdsc";

interface Answered {
  id: string;
  component: string;
  implementationName: string;
  configuration: Record<string, unknown>;
}

/** One credential of a scope: its type, where its issuers are trusted from, what goes into the token. */
function CredentialFields(props: {
  credential: CredentialDraft;
  prefix: string;
  issuersList: string;
  onChange: (c: CredentialDraft) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const c = props.credential;
  const set = (patch: Partial<CredentialDraft>) => props.onChange({ ...c, ...patch });
  return (
    <Card className="mb-2" data-testid="credential">
      <Card.Body>
        <Row className="g-2">
          <Col md={6}>
            <TextField
              id={`${props.prefix}-type`}
              label={t("fdsc.credentials.type")}
              value={c.type}
              required
              onChange={(type) => set({ type })}
            />
          </Col>
          <Col md={6} className="d-flex align-items-end justify-content-end">
            {props.onRemove && (
              <RemoveButton label={t("fdsc.credentials.removeCredential")} onClick={props.onRemove} />
            )}
          </Col>
          <Col md={6}>
            <TextField
              id={`${props.prefix}-issuers`}
              label={t("fdsc.credentials.issuersLists")}
              rows={2}
              value={c.issuers}
              onChange={(issuers) => set({ issuers })}
            >
              {props.issuersList && !c.issuers.includes(props.issuersList) && (
                <Button
                  variant="link"
                  size="sm"
                  className="px-0"
                  onClick={() =>
                    set({ issuers: [c.issuers.trim(), props.issuersList].filter(Boolean).join("\n") })
                  }
                >
                  {t("fdsc.credentials.addServiceList", { url: props.issuersList })}
                </Button>
              )}
            </TextField>
          </Col>
          <Col md={6}>
            <TextField
              id={`${props.prefix}-participants`}
              label={t("fdsc.credentials.participantsLists")}
              rows={2}
              value={c.participants}
              placeholder={"https://tir.example.org\ngaia-x https://registry.gaia-x.eu"}
              onChange={(participants) => set({ participants })}
            >
              <Form.Text>{t("fdsc.credentials.participantsHelp")}</Form.Text>
            </TextField>
          </Col>
          <Col md={12} className="d-flex flex-wrap gap-3">
            <Form.Check
              id={`${props.prefix}-jwt`}
              label={t("fdsc.credentials.jwtEnabled")}
              checked={c.jwtEnabled}
              onChange={(e) => set({ jwtEnabled: e.target.checked })}
            />
            <Form.Check
              id={`${props.prefix}-full`}
              label={t("fdsc.credentials.fullInclusion")}
              checked={c.fullInclusion}
              disabled={!c.jwtEnabled}
              onChange={(e) => set({ fullInclusion: e.target.checked })}
            />
            <Form.Check
              id={`${props.prefix}-compliance`}
              label={t("fdsc.credentials.requireCompliance")}
              checked={c.requireCompliance}
              onChange={(e) => set({ requireCompliance: e.target.checked })}
            />
            <Form.Check
              id={`${props.prefix}-holder`}
              label={t("fdsc.credentials.holderVerification")}
              checked={c.holderVerification}
              onChange={(e) => set({ holderVerification: e.target.checked })}
            />
          </Col>
          {c.holderVerification && (
            <Col md={6}>
              <TextField
                id={`${props.prefix}-holder-claim`}
                label={t("fdsc.credentials.holderClaim")}
                value={c.holderClaim}
                onChange={(holderClaim) => set({ holderClaim })}
              />
            </Col>
          )}
          {c.jwtEnabled && !c.fullInclusion && (
            <Col md={12}>
              <p className="small mb-1">{t("fdsc.credentials.claims")}</p>
              {c.claims.map((k, i) => (
                <Row key={i} className="g-2 mb-1">
                  <Col>
                    <Form.Control
                      aria-label={t("fdsc.credentials.originalKey")}
                      placeholder={t("fdsc.credentials.originalKey")}
                      value={k.originalKey}
                      onChange={(e) => set({ claims: patchAt(c.claims, i, { originalKey: e.target.value }) })}
                    />
                  </Col>
                  <Col>
                    <Form.Control
                      aria-label={t("fdsc.credentials.newKey")}
                      placeholder={t("fdsc.credentials.newKey")}
                      value={k.newKey}
                      onChange={(e) => set({ claims: patchAt(c.claims, i, { newKey: e.target.value }) })}
                    />
                  </Col>
                  <Col xs="auto">
                    <RemoveButton onClick={() => set({ claims: withoutAt(c.claims, i) })} />
                  </Col>
                </Row>
              ))}
              <AddButton
                label={t("fdsc.credentials.addClaim")}
                onClick={() => set({ claims: [...c.claims, { originalKey: "roles", newKey: "" }] })}
              />
            </Col>
          )}
        </Row>
      </Card.Body>
    </Card>
  );
}

function ConfigurationForm(props: {
  serviceId: string;
  initial: ConfigDraft;
  issuersList: string;
  exists: boolean;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [draft, setDraft] = useState(props.initial);
  const [problem, setProblem] = useState<string>();
  const failure = useFailureDialog();
  const base = `/services/${props.serviceId}/credential-configuration`;
  const save = useMutation({
    mutationFn: async (body: unknown) => (await call<Answered>(base, { method: "PUT", body })).data,
    onSuccess: (saved) => {
      client.setQueryData(["credential-configuration", props.serviceId], saved);
      notify(t("fdsc.credentials.saved", { id: saved.id }));
    },
    onError: failure.show,
  });
  const remove = useMutation({
    mutationFn: () => call(base, { method: "DELETE" }),
    onSuccess: () => {
      client.removeQueries({ queryKey: ["credential-configuration", props.serviceId] });
      notify(t("fdsc.credentials.deleted"));
      return client.invalidateQueries({ queryKey: ["credential-configuration", props.serviceId] });
    },
  });
  const deletion = useConfirmedDelete(({ onError }) => remove.mutate(undefined, { onError }));
  const setScope = (i: number, patch: Partial<ConfigDraft["scopes"][number]>) =>
    setDraft({ ...draft, scopes: patchAt(draft.scopes, i, patch) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const names = draft.scopes.map((s) => s.name.trim());
    if (names.some((n) => !n || /\s/.test(n))) return setProblem(t("fdsc.credentials.needScopeName"));
    if (new Set(names).size !== names.length) return setProblem(t("fdsc.credentials.duplicateScope"));
    if (draft.scopes.some((s) => !s.credentials.length || s.credentials.some((c) => !c.type.trim())))
      return setProblem(t("fdsc.credentials.needType"));
    if (!names.includes(draft.defaultOidcScope)) return setProblem(t("fdsc.credentials.needDefault"));
    setProblem(undefined);
    save.mutate(configOf(draft));
  };
  return (
    <Form onSubmit={submit} noValidate>
      <fieldset disabled={!props.canWrite}>
        <Row className="g-2 mb-3">
          <Col md={6}>
            <SelectField
              id="default-scope"
              label={t("fdsc.credentials.defaultScope")}
              value={draft.defaultOidcScope}
              onChange={(defaultOidcScope) => setDraft({ ...draft, defaultOidcScope })}
            >
              <option value="">{t("common.choose")}</option>
              {draft.scopes
                .map((s) => s.name.trim())
                .filter(Boolean)
                .map((n) => (
                  <option key={n}>{n}</option>
                ))}
            </SelectField>
          </Col>
          <Col md={6}>
            <SelectField
              id="authorization-type"
              label={t("fdsc.credentials.authorizationType")}
              value={draft.authorizationType}
              onChange={(type) =>
                setDraft({ ...draft, authorizationType: type as ConfigDraft["authorizationType"] })
              }
            >
              <option value="FRONTEND_V2">{t("fdsc.credentials.frontendV2")}</option>
              <option value="DEEPLINK">{t("fdsc.credentials.deeplink")}</option>
            </SelectField>
          </Col>
        </Row>
        {draft.scopes.map((scope, i) => (
          <Card key={i} className="mb-3" data-testid="scope">
            <Card.Header className="d-flex gap-2 align-items-end">
              <TextField
                id={`scope-${i}-name`}
                label={t("fdsc.credentials.scopeName")}
                className="flex-grow-1"
                value={scope.name}
                onChange={(name) => {
                  const renamed = draft.defaultOidcScope === scope.name;
                  setDraft({
                    ...draft,
                    ...(renamed ? { defaultOidcScope: name } : {}),
                    scopes: patchAt(draft.scopes, i, { name }),
                  });
                }}
              />
              {draft.scopes.length > 1 && (
                <RemoveButton
                  label={t("fdsc.credentials.removeScope")}
                  onClick={() => setDraft({ ...draft, scopes: withoutAt(draft.scopes, i) })}
                />
              )}
            </Card.Header>
            <Card.Body>
              {scope.credentials.map((c, k) => (
                <CredentialFields
                  key={k}
                  prefix={`scope-${i}-credential-${k}`}
                  credential={c}
                  issuersList={props.issuersList}
                  onChange={(next) =>
                    setScope(i, { credentials: scope.credentials.map((x, j) => (j === k ? next : x)) })
                  }
                  onRemove={
                    scope.credentials.length > 1
                      ? () => setScope(i, { credentials: withoutAt(scope.credentials, k) })
                      : undefined
                  }
                />
              ))}
              <AddButton
                label={t("fdsc.credentials.addCredential")}
                onClick={() =>
                  setScope(i, { credentials: [...scope.credentials, newCredential(props.issuersList)] })
                }
              />
            </Card.Body>
          </Card>
        ))}
        <AddButton
          label={t("fdsc.credentials.addScope")}
          className="mb-3"
          onClick={() =>
            setDraft({
              ...draft,
              scopes: [
                ...draft.scopes,
                { name: "", credentials: [newCredential(props.issuersList)], rest: {} },
              ],
            })
          }
        />
      </fieldset>
      {problem && (
        <Alert variant="warning" data-testid="configuration-problem">
          {problem}
        </Alert>
      )}
      <ErrorAlert error={save.error ?? remove.error} />
      {props.canWrite && (
        <div className="d-flex gap-2">
          <Button type="submit" disabled={save.isPending}>
            {t("common.save")}
          </Button>
          {props.exists && (
            <Button variant="outline-danger" onClick={deletion.ask}>
              {t("common.delete")}
            </Button>
          )}
        </div>
      )}
      {failure.dialog(t("fdsc.credentials.saveFailed"), explain(save.error, t))}
      {deletion.dialogs({
        confirm: t("fdsc.credentials.confirmDelete"),
        failed: t("fdsc.credentials.deletionFailed"),
        detail: explain(remove.error, t),
      })}
    </Form>
  );
}

/**
 * A service's credential configuration (route credentialConfiguration.show), in FDSC mode: its
 * OIDC scopes with the credential types each accepts, from which trusted issuers and participants
 * lists, and the claims put into the token (`jwtInclusion`: the PAP reads roles from there). Kept in
 * the credentials configuration service, standalone or the verifier's own `/service` API.
 */
export default function CredentialConfigurationScreen() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const can = useCan();
  const service = useItem(services, id);
  const base = `/services/${id}/credential-configuration`;
  const configuration = useQuery({
    queryKey: ["credential-configuration", id],
    // Absent until written: the form starts from a new configuration.
    queryFn: () =>
      get<Answered>(base).catch((e: unknown) =>
        e instanceof ApiError && e.status === 404 && e.body.code === "ccs.noConfiguration"
          ? null
          : Promise.reject(e),
      ),
  });
  const defaults = useQuery({
    queryKey: ["credential-configuration", id, "defaults"],
    queryFn: () => get<{ clientId: string; trustedIssuersList: string }>(`${base}/defaults`),
  });
  const name = String(service.data?.data.name ?? id);
  const ready = configuration.isSuccess && defaults.isSuccess;
  return (
    <>
      <Breadcrumbs
        trail={[
          { label: t("kinds.services.many"), to: kindRoute(services, "index") },
          { label: name, to: kindRoute(services, "show", id) },
          { label: t("fdsc.credentials.title") },
        ]}
      />
      <Card>
        <Card.Header>
          <h1 className="h5 mb-0 text-break">{t("fdsc.credentials.titleOf", { name })}</h1>
        </Card.Header>
        <Card.Body>
          {configuration.isError || defaults.isError ? (
            <ErrorAlert error={configuration.error ?? defaults.error} />
          ) : !ready ? (
            <Loading />
          ) : (
            <>
              <p className="small text-body-secondary">
                {t(
                  configuration.data?.implementationName === "fiware-vc-verifier"
                    ? "fdsc.credentials.atVerifier"
                    : "fdsc.credentials.atCcs",
                  { id: defaults.data.clientId },
                )}
              </p>
              {!configuration.data && (
                <Alert variant="info" data-testid="configuration-absent">
                  {t("fdsc.credentials.absent", { id: defaults.data.clientId })}
                </Alert>
              )}
              <ConfigurationForm
                key={configuration.dataUpdatedAt}
                serviceId={id}
                initial={
                  configuration.data
                    ? configDraft(configuration.data.configuration)
                    : newConfig(defaults.data.trustedIssuersList)
                }
                issuersList={defaults.data.trustedIssuersList}
                exists={!!configuration.data}
                canWrite={can.can("PUT", base)}
              />
            </>
          )}
        </Card.Body>
      </Card>
    </>
  );
}
