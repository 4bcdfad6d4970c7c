import { useEffect, useState } from "react";
import { Form } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { dataActions, types, workspaces } from "@orrery/model";
import { instantToLocal, localToInstant } from "../resources/FieldInput.tsx";
import { useList, type Item } from "../resources/queries.ts";

export type Operation = "request-delegation" | "create-policy";

interface Choices {
  accessSubject: string;
  type: string;
  identifiers: string;
  attributes: string;
  actions: string[];
  effect: "Permit" | "Deny";
  notBefore: number;
  notOnOrAfter: number;
}

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The iSHARE body the choices make: a delegation request, or a delegation evidence to create as a policy. */
export function policyBody(operation: Operation, c: Choices, registry?: Item): unknown {
  const policies = [
    {
      target: {
        resource: { type: c.type, identifiers: list(c.identifiers), attributes: list(c.attributes) },
        actions: c.actions,
      },
      rules: [{ effect: c.effect }],
    },
  ];
  const issuer = String(registry?.identifier ?? "");
  if (operation === "request-delegation")
    return {
      delegationRequest: {
        policyIssuer: issuer,
        target: { accessSubject: c.accessSubject },
        policySets: [{ policies }],
      },
    };
  return {
    delegationEvidence: {
      notBefore: c.notBefore,
      notOnOrAfter: c.notOnOrAfter,
      policyIssuer: issuer,
      target: { accessSubject: c.accessSubject },
      policySets: [
        { maxDelegationDepth: 0, target: { environment: { licenses: ["ISHARE.0001"] } }, policies },
      ],
    },
  };
}

/**
 * The guided side of the registry tool's JSON dialog: who (access subject), what (a type of a
 * workspace, identifiers, attributes), which data actions, Permit or Deny and, for a policy, when;
 * each change writes the same JSON into the text beside it (4-space indentation).
 */
export function PolicyBuilder(props: {
  operation: Operation;
  registry?: Item;
  grant?: Item;
  /** The access subject to start from, when not the grant's party (a synchronised role's). */
  subject?: string;
  onJson: (text: string) => void;
}) {
  const { t } = useTranslation();
  const tb = (key: string) => t(`tools.authorizationRegistries.builder.${key}`);
  const now = Math.floor(Date.now() / 1000);
  const [workspaceId, setWorkspaceId] = useState("");
  const [c, setC] = useState<Choices>({
    accessSubject: String(props.subject ?? props.grant?.identifier ?? ""),
    type: "",
    identifiers: "*",
    attributes: "*",
    actions: ["GET"],
    effect: "Permit",
    notBefore: now,
    notOnOrAfter: now + 365 * 24 * 3600,
  });
  const [touched, setTouched] = useState(false);
  const workspaceList = useList(workspaces).data ?? [];
  const typeList = useList(types, !!workspaceId, workspaceId).data ?? [];
  const actionList = useList(dataActions).data ?? [];
  const { operation, registry, onJson } = props;
  useEffect(() => {
    if (touched) onJson(JSON.stringify(policyBody(operation, c, registry), null, 4));
  }, [c, touched, operation, registry, onJson]);
  const set = (patch: Partial<Choices>) => {
    setTouched(true);
    setC((old) => ({ ...old, ...patch }));
  };
  const id = (name: string) => `builder-${name}`;
  const text = (field: "accessSubject" | "identifiers" | "attributes", label: string) => (
    <Form.Group className="mb-2">
      <Form.Label htmlFor={id(field)}>{label}</Form.Label>
      <Form.Control
        id={id(field)}
        size="sm"
        value={c[field]}
        onChange={(e) => set({ [field]: e.target.value })}
      />
    </Form.Group>
  );
  return (
    <fieldset>
      <legend className="h6">{tb("title")}</legend>
      {text("accessSubject", tb("accessSubject"))}
      <Form.Group className="mb-2">
        <Form.Label htmlFor={id("workspace")}>{tb("workspace")}</Form.Label>
        <Form.Select
          id={id("workspace")}
          size="sm"
          value={workspaceId}
          onChange={(e) => setWorkspaceId(e.target.value)}
        >
          <option value="">{t("common.choose")}</option>
          {workspaceList.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className="mb-2">
        <Form.Label htmlFor={id("type")}>{tb("type")}</Form.Label>
        <Form.Select id={id("type")} size="sm" value={c.type} onChange={(e) => set({ type: e.target.value })}>
          <option value="">{t("common.choose")}</option>
          {typeList.map((type) => (
            <option key={type.id} value={type.name}>
              {type.name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {text("identifiers", tb("identifiers"))}
      {text("attributes", tb("attributes"))}
      <Form.Group className="mb-2" role="group" aria-label={tb("actions")}>
        <div className="form-label">{tb("actions")}</div>
        {actionList.map((a) => (
          <Form.Check
            key={a.id}
            inline
            type="checkbox"
            id={id(`action-${a.id}`)}
            label={a.name}
            checked={c.actions.includes(a.name)}
            onChange={(e) =>
              set({
                actions: e.target.checked ? [...c.actions, a.name] : c.actions.filter((n) => n !== a.name),
              })
            }
          />
        ))}
      </Form.Group>
      <Form.Group className="mb-2" role="radiogroup" aria-label={tb("effect")}>
        <div className="form-label">{tb("effect")}</div>
        {(["Permit", "Deny"] as const).map((effect) => (
          <Form.Check
            key={effect}
            inline
            type="radio"
            name={id("effect")}
            id={id(`effect-${effect}`)}
            label={t(`synchronization.${effect === "Permit" ? "permit" : "deny"}`)}
            checked={c.effect === effect}
            onChange={() => set({ effect })}
          />
        ))}
      </Form.Group>
      {operation === "create-policy" &&
        (["notBefore", "notOnOrAfter"] as const).map((field) => (
          <Form.Group className="mb-2" key={field}>
            <Form.Label htmlFor={id(field)}>{t(`fields.${field}`)}</Form.Label>
            <Form.Control
              id={id(field)}
              size="sm"
              type="datetime-local"
              value={instantToLocal(c[field])}
              onChange={(e) => {
                const value = localToInstant(e.target.value);
                if (value !== undefined) set({ [field]: value });
              }}
            />
          </Form.Group>
        ))}
    </fieldset>
  );
}
