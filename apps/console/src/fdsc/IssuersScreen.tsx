import { useState, type FormEvent } from "react";
import { Alert, Card, Col, Form, Row } from "react-bootstrap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { trustedIssuersLists } from "@orrery/model";
import { call, get } from "../api.ts";
import { notify } from "../app/Toasts.tsx";
import { useConfirmedDelete, useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { FormButtons } from "../resources/FormButtons.tsx";
import { useItem } from "../resources/queries.ts";
import { kindRoute, routeTo } from "../routes.ts";
import { AddButton, patchAt, RemoveButton, TextField, withoutAt } from "./DraftFields.tsx";
import { FormCard, ListCard, QueryBody, ShowCard } from "./FdscPages.tsx";
import "texts:fdsc";

type Action = "index" | "create" | "show" | "edit";

interface Claim {
  name: string;
  path?: string;
  allowedValues: unknown[];
}
interface Credential {
  credentialsType: string;
  validFor?: { from?: string; to?: string };
  claims?: Claim[];
}
interface Issuer {
  did: string;
  credentials: Credential[];
}

const issuersPath = (listId: string) => `/trusted-issuers-lists/${listId}/issuers`;
const issuerPath = (listId: string, did: string) => `${issuersPath(listId)}/${encodeURIComponent(did)}`;
const keys = {
  all: (listId: string) => ["trusted-issuers", listId] as const,
  one: (listId: string, did: string) => ["trusted-issuers", listId, did] as const,
};

/** A value as a line: text as it is, anything else (a roles object) as JSON. */
const lineOf = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
/** A line back: JSON objects and lists parsed, the rest text. */
const valueOf = (line: string): unknown => {
  if (/^[[{]/.test(line))
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return line;
    }
  return line;
};
/** datetime-local shows local time; the TIL keeps ISO instants. */
const localOf = (iso?: string) => {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const isoOf = (local: string) => (local ? new Date(local).toISOString().replace(/\.000Z$/, "Z") : undefined);

function useTrail(listId: string) {
  const { t } = useTranslation();
  const list = useItem(trustedIssuersLists, listId);
  return [
    { label: t("kinds.trusted-issuers-lists.many"), to: kindRoute(trustedIssuersLists, "index") },
    { label: String(list.data?.data.name ?? listId), to: kindRoute(trustedIssuersLists, "show", listId) },
    { label: t("fdsc.issuers.title"), to: routeTo("trustedIssuers.index", { id: listId }) },
  ];
}

function IssuerList({ listId }: { listId: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const trail = useTrail(listId);
  const issuers = useQuery({
    queryKey: keys.all(listId),
    queryFn: () => get<Array<{ did: string }>>(issuersPath(listId)),
  });
  return (
    <ListCard
      trail={trail}
      title={t("fdsc.issuers.titleOf", { name: trail[1]!.label })}
      create={
        can.can("POST", issuersPath(listId)) ? routeTo("trustedIssuers.create", { id: listId }) : undefined
      }
      query={issuers}
      none={t("fdsc.issuers.none")}
      head={<th>{t("fdsc.issuers.did")}</th>}
      row={(i) => (
        <tr key={i.did}>
          <td className="text-break">
            <Link to={routeTo("trustedIssuers.show", { id: listId, did: i.did })}>{i.did}</Link>
          </td>
        </tr>
      )}
    />
  );
}

function IssuerShow({ listId, did }: { listId: string; did: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const client = useQueryClient();
  const trail = useTrail(listId);
  const issuer = useQuery({
    queryKey: keys.one(listId, did),
    queryFn: () => get<Issuer>(issuerPath(listId, did)),
  });
  const remove = useMutation({
    mutationFn: () => call(issuerPath(listId, did), { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all(listId) }),
  });
  const deletion = useConfirmedDelete(({ onError }) =>
    remove.mutate(undefined, {
      onSuccess: () => {
        notify(t("fdsc.issuers.deleted", { did }));
        navigate(routeTo("trustedIssuers.index", { id: listId }));
      },
      onError,
    }),
  );
  return (
    <>
      <ShowCard
        trail={trail}
        label={did}
        edit={
          issuer.data && can.can("PUT", issuerPath(listId, did))
            ? routeTo("trustedIssuers.edit", { id: listId, did })
            : undefined
        }
        onDelete={issuer.data && can.can("DELETE", issuerPath(listId, did)) ? deletion.ask : undefined}
        removeError={remove.error}
      >
        <QueryBody
          query={issuer}
          none={t("fdsc.issuers.noCredential")}
          isEmpty={(i) => i.credentials.length === 0}
        >
          {(found) =>
            found.credentials.map((c, i) => (
              <Card key={i} className="mb-2" data-testid="issuer-credential">
                <Card.Body>
                  <h2 className="h6">{c.credentialsType}</h2>
                  <p className="small mb-2">
                    {t("fdsc.issuers.validity", {
                      from: c.validFor?.from ? new Date(c.validFor.from).toLocaleString() : "—",
                      to: c.validFor?.to ? new Date(c.validFor.to).toLocaleString() : "—",
                    })}
                  </p>
                  {(c.claims ?? []).length === 0 ? (
                    <p className="small text-body-secondary mb-0">{t("fdsc.issuers.anyClaim")}</p>
                  ) : (
                    <ul className="small mb-0">
                      {c.claims!.map((claim, j) => (
                        <li key={j}>
                          {claim.allowedValues.length === 0
                            ? t("fdsc.issuers.forbiddenClaim", { name: claim.name })
                            : t("fdsc.issuers.claimValues", {
                                name: claim.name,
                                values: claim.allowedValues.map(lineOf).join(", "),
                              })}
                          {claim.path && <code className="ms-2">{claim.path}</code>}
                        </li>
                      ))}
                    </ul>
                  )}
                </Card.Body>
              </Card>
            ))
          }
        </QueryBody>
      </ShowCard>
      {deletion.dialogs({
        confirm: t("fdsc.issuers.confirmDelete", { did }),
        failed: t("fdsc.issuers.deletionFailed"),
        detail: explain(remove.error, t),
      })}
    </>
  );
}

interface ClaimDraft {
  name: string;
  path: string;
  values: string;
}
interface CredentialDraft {
  credentialsType: string;
  from: string;
  to: string;
  claims: ClaimDraft[];
}

const draftOf = (c: Credential): CredentialDraft => ({
  credentialsType: c.credentialsType,
  from: localOf(c.validFor?.from),
  to: localOf(c.validFor?.to),
  claims: (c.claims ?? []).map((k) => ({
    name: k.name,
    path: k.path ?? "",
    values: k.allowedValues.map(lineOf).join("\n"),
  })),
});
const credentialOf = (d: CredentialDraft): Credential => {
  const from = isoOf(d.from);
  const to = isoOf(d.to);
  return {
    credentialsType: d.credentialsType.trim(),
    ...(from || to ? { validFor: { ...(from ? { from } : {}), ...(to ? { to } : {}) } } : {}),
    claims: d.claims.map((k) => ({
      name: k.name.trim(),
      ...(k.path.trim() ? { path: k.path.trim() } : {}),
      allowedValues: k.values
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean)
        .map(valueOf),
    })),
  };
};

function IssuerForm({ listId, did }: { listId: string; did?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const trail = useTrail(listId);
  const failure = useFailureDialog();
  const existing = useQuery({
    queryKey: keys.one(listId, did ?? ""),
    queryFn: () => get<Issuer>(issuerPath(listId, did!)),
    enabled: !!did,
  });
  const save = useMutation({
    mutationFn: async (issuer: Issuer) =>
      (
        await call<Issuer>(did ? issuerPath(listId, did) : issuersPath(listId), {
          method: did ? "PUT" : "POST",
          body: issuer,
        })
      ).data,
    onSuccess: (saved) => {
      client.setQueryData(keys.one(listId, saved.did), saved);
      notify(t("fdsc.issuers.saved", { did: saved.did }));
      navigate(routeTo("trustedIssuers.show", { id: listId, did: saved.did }));
      return client.invalidateQueries({ queryKey: keys.all(listId), exact: true });
    },
    onError: failure.show,
  });
  const cancel = did
    ? routeTo("trustedIssuers.show", { id: listId, did })
    : routeTo("trustedIssuers.index", { id: listId });
  return (
    <>
      <FormCard
        trail={trail}
        editing={did}
        cancel={cancel}
        createTitle={t("fdsc.issuers.createTitle")}
        record={existing}
      >
        <IssuerFields
          initial={existing.data}
          fixedDid={did}
          busy={save.isPending}
          error={save.error}
          cancel={cancel}
          onSave={(issuer) => save.mutate(issuer)}
        />
      </FormCard>
      {failure.dialog(
        t(did ? "fdsc.issuers.updateFailed" : "fdsc.issuers.creationFailed"),
        explain(save.error, t),
      )}
    </>
  );
}

function IssuerFields(props: {
  initial?: Issuer;
  fixedDid?: string;
  busy: boolean;
  error: unknown;
  cancel: string;
  onSave: (issuer: Issuer) => void;
}) {
  const { t } = useTranslation();
  const [did, setDid] = useState(props.initial?.did ?? "");
  const [credentials, setCredentials] = useState<CredentialDraft[]>(
    props.initial?.credentials.map(draftOf) ?? [{ credentialsType: "", from: "", to: "", claims: [] }],
  );
  const [problem, setProblem] = useState<string>();
  const setCredential = (i: number, patch: Partial<CredentialDraft>) =>
    setCredentials(patchAt(credentials, i, patch));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^did:[a-z0-9]+:\S+$/.test(did.trim())) return setProblem(t("fdsc.issuers.needDid"));
    if (credentials.some((c) => !c.credentialsType.trim())) return setProblem(t("fdsc.issuers.needType"));
    if (credentials.some((c) => c.claims.some((k) => !k.name.trim())))
      return setProblem(t("fdsc.issuers.needClaimName"));
    setProblem(undefined);
    props.onSave({ did: did.trim(), credentials: credentials.map(credentialOf) });
  };
  return (
    <Form onSubmit={submit} noValidate>
      <TextField
        id="issuer-did"
        label={t("fdsc.issuers.did")}
        className="mb-3"
        value={did}
        readOnly={!!props.fixedDid}
        placeholder="did:web:operator.example.org"
        onChange={setDid}
      />
      {credentials.map((c, i) => (
        <Card key={i} className="mb-3" data-testid="issuer-credential-form">
          <Card.Body>
            <Row className="g-2">
              <Col md={4}>
                <TextField
                  id={`credential-${i}-type`}
                  label={t("fdsc.issuers.credentialsType")}
                  value={c.credentialsType}
                  onChange={(credentialsType) => setCredential(i, { credentialsType })}
                />
              </Col>
              <Col md={3}>
                <TextField
                  id={`credential-${i}-from`}
                  label={t("fdsc.issuers.validFrom")}
                  type="datetime-local"
                  value={c.from}
                  onChange={(from) => setCredential(i, { from })}
                />
              </Col>
              <Col md={3}>
                <TextField
                  id={`credential-${i}-to`}
                  label={t("fdsc.issuers.validTo")}
                  type="datetime-local"
                  value={c.to}
                  onChange={(to) => setCredential(i, { to })}
                />
              </Col>
              <Col md={2} className="d-flex align-items-end">
                <RemoveButton
                  label={t("fdsc.issuers.removeCredential")}
                  onClick={() => setCredentials(withoutAt(credentials, i))}
                />
              </Col>
            </Row>
            <p className="small mt-3 mb-1">{t("fdsc.issuers.claimsHelp")}</p>
            {c.claims.map((k, j) => {
              const setClaim = (patch: Partial<ClaimDraft>) =>
                setCredential(i, { claims: patchAt(c.claims, j, patch) });
              return (
                <Row key={j} className="g-2 mb-2">
                  <Col md={3}>
                    <TextField
                      id={`credential-${i}-claim-${j}-name`}
                      label={t("fdsc.issuers.claimName")}
                      value={k.name}
                      onChange={(name) => setClaim({ name })}
                    />
                  </Col>
                  <Col md={3}>
                    <TextField
                      id={`credential-${i}-claim-${j}-path`}
                      label={t("fdsc.issuers.claimPath")}
                      value={k.path}
                      placeholder="$.roles[*].names[*]"
                      onChange={(path) => setClaim({ path })}
                    />
                  </Col>
                  <Col md={4}>
                    <TextField
                      id={`credential-${i}-claim-${j}-values`}
                      label={t("fdsc.issuers.allowedValues")}
                      rows={2}
                      value={k.values}
                      onChange={(values) => setClaim({ values })}
                    />
                  </Col>
                  <Col md={2} className="d-flex align-items-end">
                    <RemoveButton onClick={() => setCredential(i, { claims: withoutAt(c.claims, j) })} />
                  </Col>
                </Row>
              );
            })}
            <AddButton
              label={t("fdsc.issuers.addClaim")}
              onClick={() =>
                setCredential(i, { claims: [...c.claims, { name: "roles", path: "", values: "" }] })
              }
            />
          </Card.Body>
        </Card>
      ))}
      <AddButton
        label={t("fdsc.issuers.addCredential")}
        className="mb-3"
        onClick={() =>
          setCredentials([...credentials, { credentialsType: "", from: "", to: "", claims: [] }])
        }
      />
      {problem && (
        <Alert variant="warning" data-testid="issuer-problem">
          {problem}
        </Alert>
      )}
      <ErrorAlert error={props.error} />
      <FormButtons label={t("common.save")} busy={props.busy} cancel={props.cancel} />
    </Form>
  );
}

/**
 * The issuers of a trusted issuers list (routes trustedIssuers.*): listed by DID, each shown with
 * its credentials (type, validity, claims and their allowed values), added, edited and removed in
 * the list itself.
 */
export default function IssuersScreen({ action }: { action: Action }) {
  const { id = "", did } = useParams();
  if (action === "index") return <IssuerList listId={id} />;
  if (action === "show") return <IssuerShow listId={id} did={did ?? ""} />;
  return <IssuerForm listId={id} did={action === "edit" ? did : undefined} />;
}
