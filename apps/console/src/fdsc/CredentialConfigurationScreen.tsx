import { useState, type FormEvent } from "react";
import { Alert, Button, Card, Col, Form, Row, Spinner } from "react-bootstrap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { useTranslation } from "react-i18next";
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
            <Form.Group controlId={`${props.prefix}-type`}>
              <Form.Label>{t("fdsc.credentials.type")}</Form.Label>
              <Form.Control value={c.type} required onChange={(e) => set({ type: e.target.value })} />
            </Form.Group>
          </Col>
          <Col md={6} className="d-flex align-items-end justify-content-end">
            {props.onRemove && (
              <Button variant="outline-danger" size="sm" onClick={props.onRemove}>
                {t("fdsc.credentials.removeCredential")}
              </Button>
            )}
          </Col>
          <Col md={6}>
            <Form.Group controlId={`${props.prefix}-issuers`}>
              <Form.Label>{t("fdsc.credentials.issuersLists")}</Form.Label>
              <Form.Control
                as="textarea"
                rows={2}
                value={c.issuers}
                onChange={(e) => set({ issuers: e.target.value })}
              />
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
            </Form.Group>
          </Col>
          <Col md={6}>
            <Form.Group controlId={`${props.prefix}-participants`}>
              <Form.Label>{t("fdsc.credentials.participantsLists")}</Form.Label>
              <Form.Control
                as="textarea"
                rows={2}
                value={c.participants}
                placeholder="https://tir.example.org&#10;gaia-x https://registry.gaia-x.eu"
                onChange={(e) => set({ participants: e.target.value })}
              />
              <Form.Text>{t("fdsc.credentials.participantsHelp")}</Form.Text>
            </Form.Group>
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
              <Form.Group controlId={`${props.prefix}-holder-claim`}>
                <Form.Label>{t("fdsc.credentials.holderClaim")}</Form.Label>
                <Form.Control value={c.holderClaim} onChange={(e) => set({ holderClaim: e.target.value })} />
              </Form.Group>
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
                      onChange={(e) =>
                        set({
                          claims: c.claims.map((x, j) =>
                            j === i ? { ...x, originalKey: e.target.value } : x,
                          ),
                        })
                      }
                    />
                  </Col>
                  <Col>
                    <Form.Control
                      aria-label={t("fdsc.credentials.newKey")}
                      placeholder={t("fdsc.credentials.newKey")}
                      value={k.newKey}
                      onChange={(e) =>
                        set({
                          claims: c.claims.map((x, j) => (j === i ? { ...x, newKey: e.target.value } : x)),
                        })
                      }
                    />
                  </Col>
                  <Col xs="auto">
                    <Button
                      variant="outline-danger"
                      size="sm"
                      onClick={() => set({ claims: c.claims.filter((_x, j) => j !== i) })}
                    >
                      {t("common.remove")}
                    </Button>
                  </Col>
                </Row>
              ))}
              <Button
                variant="outline-secondary"
                size="sm"
                onClick={() => set({ claims: [...c.claims, { originalKey: "roles", newKey: "" }] })}
              >
                {t("fdsc.credentials.addClaim")}
              </Button>
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
    setDraft({ ...draft, scopes: draft.scopes.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
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
            <Form.Group controlId="default-scope">
              <Form.Label>{t("fdsc.credentials.defaultScope")}</Form.Label>
              <Form.Select
                value={draft.defaultOidcScope}
                onChange={(e) => setDraft({ ...draft, defaultOidcScope: e.target.value })}
              >
                <option value="">{t("common.choose")}</option>
                {draft.scopes
                  .map((s) => s.name.trim())
                  .filter(Boolean)
                  .map((n) => (
                    <option key={n}>{n}</option>
                  ))}
              </Form.Select>
            </Form.Group>
          </Col>
          <Col md={6}>
            <Form.Group controlId="authorization-type">
              <Form.Label>{t("fdsc.credentials.authorizationType")}</Form.Label>
              <Form.Select
                value={draft.authorizationType}
                onChange={(e) =>
                  setDraft({
                    ...draft,
                    authorizationType: e.target.value as ConfigDraft["authorizationType"],
                  })
                }
              >
                <option value="FRONTEND_V2">{t("fdsc.credentials.frontendV2")}</option>
                <option value="DEEPLINK">{t("fdsc.credentials.deeplink")}</option>
              </Form.Select>
            </Form.Group>
          </Col>
        </Row>
        {draft.scopes.map((scope, i) => (
          <Card key={i} className="mb-3" data-testid="scope">
            <Card.Header className="d-flex gap-2 align-items-end">
              <Form.Group controlId={`scope-${i}-name`} className="flex-grow-1">
                <Form.Label>{t("fdsc.credentials.scopeName")}</Form.Label>
                <Form.Control
                  value={scope.name}
                  onChange={(e) => {
                    const renamed = draft.defaultOidcScope === scope.name;
                    setDraft({
                      ...draft,
                      ...(renamed ? { defaultOidcScope: e.target.value } : {}),
                      scopes: draft.scopes.map((s, j) => (j === i ? { ...s, name: e.target.value } : s)),
                    });
                  }}
                />
              </Form.Group>
              {draft.scopes.length > 1 && (
                <Button
                  variant="outline-danger"
                  size="sm"
                  onClick={() => setDraft({ ...draft, scopes: draft.scopes.filter((_s, j) => j !== i) })}
                >
                  {t("fdsc.credentials.removeScope")}
                </Button>
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
                      ? () => setScope(i, { credentials: scope.credentials.filter((_x, j) => j !== k) })
                      : undefined
                  }
                />
              ))}
              <Button
                variant="outline-secondary"
                size="sm"
                onClick={() =>
                  setScope(i, { credentials: [...scope.credentials, newCredential(props.issuersList)] })
                }
              >
                {t("fdsc.credentials.addCredential")}
              </Button>
            </Card.Body>
          </Card>
        ))}
        <Button
          variant="outline-secondary"
          size="sm"
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
        >
          {t("fdsc.credentials.addScope")}
        </Button>
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
            <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
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
