import { useState, type FormEvent } from "react";
import { Alert, Button, Card, Col, Form, Nav, Row } from "react-bootstrap";
import { useTranslation } from "react-i18next";
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
          <Form.Group className="mb-3" controlId="policy-uid">
            <Form.Label>{t("fdsc.builder.uid")}</Form.Label>
            <Form.Control value={draft.uid} onChange={(e) => set("uid", e.target.value)} required />
          </Form.Group>
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
                    <Form.Group controlId="policy-role-of">
                      <Form.Label>{t("fdsc.builder.fromRole")}</Form.Label>
                      <Form.Select
                        value=""
                        onChange={(e) => {
                          const role = roleItems.find((r) => r.id === e.target.value);
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
                      </Form.Select>
                    </Form.Group>
                  </Col>
                )}
                <Col md={4}>
                  <Form.Group controlId="policy-role">
                    <Form.Label>{t("fdsc.builder.role")}</Form.Label>
                    <Form.Control
                      value={draft.assignee.role}
                      onChange={(e) =>
                        draft.assignee.kind === "role" &&
                        set("assignee", { ...draft.assignee, role: e.target.value })
                      }
                    />
                  </Form.Group>
                </Col>
                <Col md={4}>
                  <Form.Group controlId="policy-credential-type">
                    <Form.Label>{t("fdsc.builder.credentialType")}</Form.Label>
                    <Form.Control
                      value={draft.assignee.credentialType}
                      onChange={(e) =>
                        draft.assignee.kind === "role" &&
                        set("assignee", { ...draft.assignee, credentialType: e.target.value })
                      }
                    />
                  </Form.Group>
                </Col>
              </Row>
            )}
            {draft.assignee.kind === "party" && (
              <Form.Group className="mt-1" controlId="policy-party">
                <Form.Label>{t("fdsc.builder.partyDid")}</Form.Label>
                <Form.Control
                  value={draft.assignee.did}
                  placeholder="did:web:consumer.example.org"
                  onChange={(e) => set("assignee", { kind: "party", did: e.target.value })}
                />
              </Form.Group>
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
              <Form.Group className="mt-1" controlId="policy-entity-type">
                <Form.Label>{t("fdsc.builder.entityType")}</Form.Label>
                <Form.Control
                  list="policy-type-names"
                  value={draft.target.entityType}
                  onChange={(e) => set("target", { kind: "entityType", entityType: e.target.value })}
                />
                <datalist id="policy-type-names">
                  {typeNames.map((n) => (
                    <option key={n} value={n} />
                  ))}
                </datalist>
              </Form.Group>
            ) : (
              <Form.Group className="mt-1" controlId="policy-entity">
                <Form.Label>{t("fdsc.builder.entityId")}</Form.Label>
                <Form.Control
                  value={draft.target.entityId}
                  placeholder="urn:ngsi-ld:K8SCluster:001"
                  onChange={(e) => set("target", { kind: "entity", entityId: e.target.value })}
                />
              </Form.Group>
            )}
          </fieldset>
          <fieldset className="mb-3">
            <legend className="h6">{t("fdsc.builder.constraints")}</legend>
            {draft.constraints.map((c, i) => {
              const update = (patch: Partial<typeof c>) =>
                set(
                  "constraints",
                  draft.constraints.map((x, j) => (j === i ? { ...x, ...patch } : x)),
                );
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
                    <Button
                      variant="outline-danger"
                      size="sm"
                      onClick={() =>
                        set(
                          "constraints",
                          draft.constraints.filter((_x, j) => j !== i),
                        )
                      }
                    >
                      {t("common.remove")}
                    </Button>
                  </Col>
                </Row>
              );
            })}
            <Button
              variant="outline-secondary"
              size="sm"
              onClick={() =>
                set("constraints", [
                  ...draft.constraints,
                  { leftOperand: "odrl:dayOfWeek", operator: "odrl:lteq", rightOperand: "" },
                ])
              }
            >
              {t("fdsc.builder.addConstraint")}
            </Button>
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
              <Form.Group controlId="test-method">
                <Form.Label>{t("fdsc.builder.method")}</Form.Label>
                <Form.Select
                  value={test.method}
                  onChange={(e) => setTest({ ...test, method: e.target.value })}
                >
                  {["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </Form.Select>
              </Form.Group>
            </Col>
            <Col md={4}>
              <Form.Group controlId="test-path">
                <Form.Label>{t("fdsc.builder.path")}</Form.Label>
                <Form.Control
                  value={test.path}
                  onChange={(e) => setTest({ ...test, path: e.target.value })}
                />
              </Form.Group>
            </Col>
            <Col md={2}>
              <Form.Group controlId="test-roles">
                <Form.Label>{t("fdsc.builder.testRoles")}</Form.Label>
                <Form.Control
                  value={(test.roles ?? []).join(", ")}
                  onChange={(e) =>
                    setTest({
                      ...test,
                      roles: e.target.value
                        .split(",")
                        .map((r) => r.trim())
                        .filter(Boolean),
                    })
                  }
                />
              </Form.Group>
            </Col>
            <Col md={2}>
              <Form.Group controlId="test-credential-type">
                <Form.Label>{t("fdsc.builder.credentialType")}</Form.Label>
                <Form.Control
                  value={test.credentialType ?? ""}
                  onChange={(e) => setTest({ ...test, credentialType: e.target.value || undefined })}
                />
              </Form.Group>
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
