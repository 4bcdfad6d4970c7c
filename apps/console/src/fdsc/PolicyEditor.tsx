import { useState, type FormEvent } from "react";
import { Alert, Button, Card, Col, Form, Nav, Row } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { roles, types } from "@orrery/model";
import {
  draftOf,
  odrlActions,
  odrlLeftOperands,
  odrlOf,
  odrlOperators,
  type PolicyDraft,
} from "@orrery/model/odrl";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import { FormButtons } from "../resources/FormButtons.tsx";
import { useList } from "../resources/queries.ts";
import { AddButton, patchAt, RemoveButton, SelectField, TextField, withoutAt } from "./DraftFields.tsx";
import { actionKeys, operatorKeys } from "./PolicyStatement.tsx";
import { useValidatePolicy, type TestRequest } from "./policyQueries.ts";

const newDraft = (): PolicyDraft => ({
  uid: `urn:orrery:policy:${crypto.randomUUID()}`,
  assignee: { kind: "role", role: "", credentialType: "" },
  actions: ["odrl:read"],
  target: { kind: "entityType", entityType: "" },
  constraints: [],
});

const pretty = (value: unknown) => JSON.stringify(value, null, 4);

/** What a draft needs before it is a policy the PAP takes; the first gap, as a message key. */
function gapOf(draft: PolicyDraft): string | undefined {
  if (!draft.uid.trim()) return "fdsc.builder.needUid";
  if (
    draft.assignee.kind === "role" &&
    (!draft.assignee.role.trim() || !draft.assignee.credentialType.trim())
  )
    return "fdsc.builder.needRole";
  if (draft.assignee.kind === "party" && !/^did:[a-z0-9]+:\S+$/.test(draft.assignee.did))
    return "fdsc.builder.needDid";
  if (!draft.actions.length) return "fdsc.builder.needAction";
  if (draft.target.kind === "entityType" ? !draft.target.entityType.trim() : !draft.target.entityId.trim())
    return "fdsc.builder.needTarget";
  if (draft.constraints.some((c) => !c.rightOperand.trim())) return "fdsc.builder.needValue";
  return undefined;
}

/** A test request made from a draft: the first action's method on the target, with the assignee's credential. */
function testOf(draft: PolicyDraft | undefined): TestRequest {
  const method =
    { "odrl:modify": "PATCH", "odrl:delete": "DELETE", "ngsild:create": "POST", "dome-op:write": "PUT" }[
      draft?.actions[0] ?? ""
    ] ?? "GET";
  const path =
    draft?.target.kind === "entity"
      ? `/ngsi-ld/v1/entities/${draft.target.entityId}`
      : `/ngsi-ld/v1/entities?type=${encodeURIComponent(draft?.target.kind === "entityType" ? draft.target.entityType : "")}`;
  return draft?.assignee.kind === "role"
    ? { method, path, credentialType: draft.assignee.credentialType, roles: [draft.assignee.role] }
    : { method, path };
}

/**
 * The policy form: a guided builder (assignee by role from a credential, actions, target entity
 * type or entity, constraints) or the ODRL JSON for those who prefer it; both can be tried against
 * the PAP's /validate with a test request. `odrl` is the policy edited (none for a new one).
 */
export function PolicyEditor(props: {
  workspaceId: string;
  odrl?: Record<string, unknown>;
  busy: boolean;
  error: unknown;
  cancel: string;
  onSave: (odrl: unknown) => void;
}) {
  const { t } = useTranslation();
  const typeList = useList(types);
  const roleList = useList(roles);
  const initial = props.odrl ? draftOf(props.odrl) : newDraft();
  const [draft, setDraft] = useState<PolicyDraft | undefined>(initial);
  const [mode, setMode] = useState<"builder" | "json">(initial ? "builder" : "json");
  const [json, setJson] = useState(() => pretty(props.odrl ?? odrlOf(initial!)));
  const [problem, setProblem] = useState<string>();
  const [test, setTest] = useState<TestRequest>(() => testOf(initial));
  const validate = useValidatePolicy(props.workspaceId);

  const change = (next: PolicyDraft) => {
    setDraft(next);
    setProblem(undefined);
  };
  /** The ODRL the form holds now, or why it holds none. */
  const current = (): { odrl?: unknown; problem?: string } => {
    if (mode === "json") {
      try {
        const parsed = JSON.parse(json) as unknown;
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
          return { problem: t("fdsc.builder.notObject") };
        return { odrl: parsed };
      } catch {
        return { problem: t("fdsc.builder.jsonParsingFailed") };
      }
    }
    const gap = draft ? gapOf(draft) : "fdsc.builder.needUid";
    return gap ? { problem: t(gap) } : { odrl: odrlOf(draft!) };
  };
  const switchTo = (next: "builder" | "json") => {
    if (next === mode) return;
    if (next === "json") {
      const now = current();
      setJson(pretty(now.odrl ?? (draft ? odrlOf(draft) : {})));
      setMode("json");
      setProblem(undefined);
      return;
    }
    const now = current();
    const read = now.odrl ? draftOf(now.odrl) : undefined;
    if (!read) return setProblem(now.problem ?? t("fdsc.builder.notGuided"));
    change(read);
    setMode("builder");
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const now = current();
    if (now.problem) return setProblem(now.problem);
    props.onSave(now.odrl);
  };
  const tryIt = () => {
    const now = current();
    if (now.problem) return setProblem(now.problem);
    validate.mutate({ odrl: now.odrl, request: test });
  };

  const set = <K extends keyof PolicyDraft>(key: K, value: PolicyDraft[K]) =>
    draft && change({ ...draft, [key]: value });
  const typeNames = [...new Set((typeList.data ?? []).map((ty) => String(ty.name)))].sort();
  const roleItems = roleList.data ?? [];

  return (
    <Form onSubmit={submit} noValidate>
      <Nav
        variant="tabs"
        activeKey={mode}
        className="mb-3"
        onSelect={(k) => switchTo(k as "builder" | "json")}
      >
        <Nav.Item>
          <Nav.Link eventKey="builder">{t("fdsc.builder.guided")}</Nav.Link>
        </Nav.Item>
        <Nav.Item>
          <Nav.Link eventKey="json">{t("fdsc.builder.json")}</Nav.Link>
        </Nav.Item>
      </Nav>
      {mode === "json" || !draft ? (
        <Form.Group className="mb-3" controlId="policy-json">
          <Form.Label>{t("fdsc.builder.odrl")}</Form.Label>
          <Form.Control
            as="textarea"
            rows={18}
            className="font-monospace small"
            value={json}
            onChange={(e) => {
              setJson(e.target.value);
              setProblem(undefined);
            }}
          />
        </Form.Group>
      ) : (
        <>
          <TextField
            id="policy-uid"
            label={t("fdsc.builder.uid")}
            className="mb-3"
            value={draft.uid}
            onChange={(uid) => set("uid", uid)}
            required
          />
          <fieldset className="mb-3">
            <legend className="h6">{t("fdsc.builder.assignee")}</legend>
            {(["role", "any", "party"] as const).map((kind) => (
              <Form.Check
                key={kind}
                inline
                type="radio"
                name="assignee"
                id={`assignee-${kind}`}
                label={t(
                  {
                    role: "fdsc.builder.assigneeRole",
                    any: "fdsc.builder.assigneeAny",
                    party: "fdsc.builder.assigneeParty",
                  }[kind],
                )}
                checked={draft.assignee.kind === kind}
                onChange={() =>
                  set(
                    "assignee",
                    kind === "role"
                      ? { kind, role: "", credentialType: "" }
                      : kind === "party"
                        ? { kind, did: "" }
                        : { kind },
                  )
                }
              />
            ))}
            {draft.assignee.kind === "role" && (
              <Row className="g-2 mt-1">
                {roleItems.length > 0 && (
                  <Col md={4}>
                    <SelectField
                      id="policy-role-of"
                      label={t("fdsc.builder.fromRole")}
                      value=""
                      onChange={(id) => {
                        const role = roleItems.find((r) => r.id === id);
                        if (role)
                          set("assignee", {
                            kind: "role",
                            role: String(role.roleName ?? role.name),
                            credentialType: String(role.verifiableCredentialType ?? ""),
                          });
                      }}
                    >
                      <option value="">{t("common.choose")}</option>
                      {roleItems.map((r) => (
                        <option key={r.id} value={r.id}>
                          {r.name}
                        </option>
                      ))}
                    </SelectField>
                  </Col>
                )}
                <Col md={4}>
                  <TextField
                    id="policy-role"
                    label={t("fdsc.builder.role")}
                    value={draft.assignee.role}
                    onChange={(role) =>
                      draft.assignee.kind === "role" && set("assignee", { ...draft.assignee, role })
                    }
                  />
                </Col>
                <Col md={4}>
                  <TextField
                    id="policy-credential-type"
                    label={t("fdsc.builder.credentialType")}
                    value={draft.assignee.credentialType}
                    onChange={(credentialType) =>
                      draft.assignee.kind === "role" && set("assignee", { ...draft.assignee, credentialType })
                    }
                  />
                </Col>
              </Row>
            )}
            {draft.assignee.kind === "party" && (
              <TextField
                id="policy-party"
                label={t("fdsc.builder.partyDid")}
                className="mt-1"
                value={draft.assignee.did}
                placeholder="did:web:consumer.example.org"
                onChange={(did) => set("assignee", { kind: "party", did })}
              />
            )}
          </fieldset>
          <fieldset className="mb-3">
            <legend className="h6">{t("fdsc.builder.actions")}</legend>
            {odrlActions.map((action) => (
              <Form.Check
                key={action}
                inline
                id={`action-${action}`}
                label={`${t(actionKeys[action]!)} (${action})`}
                checked={draft.actions.includes(action)}
                onChange={(e) =>
                  set(
                    "actions",
                    e.target.checked
                      ? odrlActions.filter((a) => a === action || draft.actions.includes(a))
                      : draft.actions.filter((a) => a !== action),
                  )
                }
              />
            ))}
          </fieldset>
          <fieldset className="mb-3">
            <legend className="h6">{t("fdsc.builder.target")}</legend>
            {(["entityType", "entity"] as const).map((kind) => (
              <Form.Check
                key={kind}
                inline
                type="radio"
                name="target"
                id={`target-${kind}`}
                label={t(kind === "entityType" ? "fdsc.builder.targetType" : "fdsc.builder.targetEntity")}
                checked={draft.target.kind === kind}
                onChange={() =>
                  set("target", kind === "entityType" ? { kind, entityType: "" } : { kind, entityId: "" })
                }
              />
            ))}
            {draft.target.kind === "entityType" ? (
              <TextField
                id="policy-entity-type"
                label={t("fdsc.builder.entityType")}
                className="mt-1"
                list="policy-type-names"
                value={draft.target.entityType}
                onChange={(entityType) => set("target", { kind: "entityType", entityType })}
              >
                <datalist id="policy-type-names">
                  {typeNames.map((n) => (
                    <option key={n} value={n} />
                  ))}
                </datalist>
              </TextField>
            ) : (
              <TextField
                id="policy-entity"
                label={t("fdsc.builder.entityId")}
                className="mt-1"
                value={draft.target.entityId}
                placeholder="urn:ngsi-ld:K8SCluster:001"
                onChange={(entityId) => set("target", { kind: "entity", entityId })}
              />
            )}
          </fieldset>
          <fieldset className="mb-3">
            <legend className="h6">{t("fdsc.builder.constraints")}</legend>
            {draft.constraints.map((c, i) => {
              const update = (patch: Partial<typeof c>) =>
                set("constraints", patchAt(draft.constraints, i, patch));
              return (
                <Row key={i} className="g-2 mb-2 align-items-end">
                  <Col md={4}>
                    <Form.Select
                      aria-label={t("fdsc.builder.leftOperand")}
                      value={c.leftOperand}
                      onChange={(e) => update({ leftOperand: e.target.value })}
                    >
                      {odrlLeftOperands.map((o) => (
                        <option key={o}>{o}</option>
                      ))}
                    </Form.Select>
                  </Col>
                  <Col md={3}>
                    <Form.Select
                      aria-label={t("fdsc.builder.operator")}
                      value={c.operator}
                      onChange={(e) => update({ operator: e.target.value })}
                    >
                      {odrlOperators.map((o) => (
                        <option key={o} value={o}>
                          {t(operatorKeys[o]!)} ({o})
                        </option>
                      ))}
                    </Form.Select>
                  </Col>
                  <Col md={4}>
                    <Form.Control
                      aria-label={t("fdsc.builder.rightOperand")}
                      value={c.rightOperand}
                      onChange={(e) => update({ rightOperand: e.target.value })}
                    />
                  </Col>
                  <Col md={1}>
                    <RemoveButton onClick={() => set("constraints", withoutAt(draft.constraints, i))} />
                  </Col>
                </Row>
              );
            })}
            <AddButton
              label={t("fdsc.builder.addConstraint")}
              onClick={() =>
                set("constraints", [
                  ...draft.constraints,
                  { leftOperand: "odrl:dayOfWeek", operator: "odrl:lteq", rightOperand: "" },
                ])
              }
            />
          </fieldset>
        </>
      )}
      {problem && (
        <Alert variant="warning" data-testid="policy-problem">
          {problem}
        </Alert>
      )}
      <Card className="mb-3">
        <Card.Header className="h6">{t("fdsc.builder.tryTitle")}</Card.Header>
        <Card.Body>
          <p className="small text-body-secondary">{t("fdsc.builder.tryIntro")}</p>
          <Row className="g-2 align-items-end">
            <Col md={2}>
              <SelectField
                id="test-method"
                label={t("fdsc.builder.method")}
                value={test.method}
                onChange={(method) => setTest({ ...test, method })}
              >
                {["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </SelectField>
            </Col>
            <Col md={4}>
              <TextField
                id="test-path"
                label={t("fdsc.builder.path")}
                value={test.path}
                onChange={(path) => setTest({ ...test, path })}
              />
            </Col>
            <Col md={2}>
              <TextField
                id="test-roles"
                label={t("fdsc.builder.testRoles")}
                value={(test.roles ?? []).join(", ")}
                onChange={(roles) =>
                  setTest({
                    ...test,
                    roles: roles
                      .split(",")
                      .map((r) => r.trim())
                      .filter(Boolean),
                  })
                }
              />
            </Col>
            <Col md={2}>
              <TextField
                id="test-credential-type"
                label={t("fdsc.builder.credentialType")}
                value={test.credentialType ?? ""}
                onChange={(type) => setTest({ ...test, credentialType: type || undefined })}
              />
            </Col>
            <Col md={2}>
              <Button variant="outline-primary" onClick={tryIt} disabled={validate.isPending}>
                {t("fdsc.builder.validate")}
              </Button>
            </Col>
          </Row>
          {mode === "builder" && (
            <Button variant="link" size="sm" className="px-0" onClick={() => setTest(testOf(draft))}>
              {t("fdsc.builder.testFromPolicy")}
            </Button>
          )}
          <ErrorAlert error={validate.error} className="mt-2 mb-0" />
          {validate.data && (
            <Alert
              variant={validate.data.allow ? "success" : "secondary"}
              className="mt-2 mb-0"
              data-testid="policy-verdict"
            >
              {t(validate.data.allow ? "fdsc.builder.allowed" : "fdsc.builder.denied")}
              {validate.data.explanation?.length ? ` ${validate.data.explanation.map(String).join(" ")}` : ""}
            </Alert>
          )}
        </Card.Body>
      </Card>
      <ErrorAlert error={props.error} />
      <FormButtons label={t("common.save")} busy={props.busy} cancel={props.cancel} />
    </Form>
  );
}
