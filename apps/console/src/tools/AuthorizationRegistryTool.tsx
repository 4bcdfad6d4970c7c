import { useMutation, useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { Alert, Button, Card, Col, Form, Modal, Row } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { Link } from "react-router";
import { authorizationRegistries, authorizationRegistryGrants, workspaces } from "@orrery/model";
import { call, get } from "../api.ts";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { JsonTree } from "../errors/JsonTree.tsx";
import { usePageTitle } from "../resources/Breadcrumbs.tsx";
import { MessageDialog } from "../errors/Dialogs.tsx";
import { useList, type Item } from "../resources/queries.ts";
import { useCan } from "../permissions.ts";
import { kindRoute } from "../routes.ts";
import { PolicyBuilder, type Operation } from "./PolicyBuilder.tsx";
import "texts:trust";

/** An access subject the registry holds a policy for: a role synchronised with it, and what its policy targets. */
export interface KnownSubject {
  accessSubject: string;
  target: unknown;
}

/**
 * The access subject of the first role synchronised with this registry (its last delegation
 * evidence came from it): a registry answers a delegation request only for a subject it holds a
 * policy for (Keyrock: an empty 404 otherwise), and Orrery writes roles' policies under their
 * roleName, not under the party that signs. Roles the user may not read are passed over.
 */
function useKnownSubject(registry?: Item) {
  const workspaceList = useList(workspaces, !!registry).data;
  return useQuery({
    queryKey: ["registry-tool-subject", registry?.id, registry?.identifier, workspaceList?.map((w) => w.id)],
    enabled: !!registry && !!workspaceList,
    queryFn: async (): Promise<KnownSubject | null> => {
      for (const workspace of workspaceList!.filter((w) => w.hasAuthorizationRegistry === registry!.id)) {
        const roleList = await get<Item[]>(`/workspace/${encodeURIComponent(workspace.id)}/roles`).catch(
          () => [] as Item[],
        );
        for (const role of roleList) {
          const evidence = (role.lastDelegationEvidence as { delegationEvidence?: Evidence } | null)
            ?.delegationEvidence;
          const accessSubject = evidence?.target?.accessSubject;
          if (evidence && evidence.policyIssuer === registry!.identifier && typeof accessSubject === "string")
            return { accessSubject, target: evidence.policySets?.[0]?.policies?.[0]?.target };
        }
      }
      return null;
    },
  });
}

interface Evidence {
  policyIssuer?: unknown;
  target?: { accessSubject?: unknown };
  policySets?: Array<{ policies?: Array<{ target?: unknown }> }>;
}

/**
 * Example bodies in the iSHARE shapes, for the user to edit. A delegation request asks about a
 * subject the registry knows when there is one (a synchronised role's, on its policy's target); a
 * policy is written for the grant's own party, never over a role's.
 */
function template(operation: Operation, registry?: Item, grant?: Item, known?: KnownSubject | null): unknown {
  const policies = [
    {
      target: {
        resource: { type: "DELIVERYORDER", identifiers: ["*"], attributes: ["*"] },
        actions: ["GET"],
      },
      rules: [{ effect: "Permit" }],
    },
  ];
  if (operation === "request-delegation") {
    return {
      delegationRequest: {
        policyIssuer: registry?.identifier ?? "",
        target: { accessSubject: known?.accessSubject ?? grant?.identifier ?? "" },
        policySets: [
          { policies: known?.target ? [{ target: known.target, rules: [{ effect: "Permit" }] }] : policies },
        ],
      },
    };
  }
  const now = Math.floor(Date.now() / 1000);
  return {
    delegationEvidence: {
      notBefore: now,
      notOnOrAfter: now + 365 * 24 * 3600,
      policyIssuer: registry?.identifier ?? "",
      target: { accessSubject: grant?.identifier ?? "" },
      policySets: [
        { maxDelegationDepth: 0, target: { environment: { licenses: ["ISHARE.0001"] } }, policies },
      ],
    },
  };
}

/**
 * In place of two empty selects: what to register before the tool can be used (a registry, then a
 * grant of it), with a link to the form for those who may register it.
 */
function NothingRegistered({ registries }: { registries: number }) {
  const { t } = useTranslation();
  const can = useCan();
  const wanted = registries
    ? [authorizationRegistryGrants]
    : [authorizationRegistries, authorizationRegistryGrants];
  return (
    <Alert variant="info" className="mb-0">
      <p className={wanted.some((k) => can.store(k)) ? "mb-2" : "mb-0"}>
        {t(
          registries
            ? "tools.authorizationRegistries.noGrant"
            : "tools.authorizationRegistries.nothingRegistered",
        )}
      </p>
      <div className="d-flex flex-wrap gap-2">
        {wanted
          .filter((kind) => can.store(kind))
          .map((kind) => (
            <Link key={kind.kind} to={kindRoute(kind, "create")} className="btn btn-sm btn-outline-primary">
              {t("common.createTitle", { kind: t(`kinds.${kind.kind}.one`) })}
            </Link>
          ))}
      </div>
    </Alert>
  );
}

/** tools.authorizationRegistries.home: delegation requests and policies through a registered registry. */
export default function AuthorizationRegistryTool() {
  const { t } = useTranslation();
  const registries = useList(authorizationRegistries);
  const grants = useList(authorizationRegistryGrants);
  const [registryId, setRegistryId] = useState("");
  const [grantId, setGrantId] = useState("");
  const [dialog, setDialog] = useState<{ operation: Operation; text: string } | null>(null);
  const [message, setMessage] = useState<{ title: string; text: string; detail?: string } | null>(null);
  const [evidence, setEvidence] = useState<unknown>(null);
  const registry = registries.data?.find((r) => r.id === registryId);
  const grant = grants.data?.find((g) => g.id === grantId);
  const known = useKnownSubject(registryId && grantId ? registry : undefined).data;
  const tt = (key: string) => t(`tools.authorizationRegistries.${key}`);
  usePageTitle([tt("title")]);

  const send = useMutation({
    mutationFn: ({ operation, body }: { operation: Operation; body: unknown }) =>
      call<unknown>(`/proxies/authorization-registry/${operation}`, {
        method: "POST",
        body,
        query: { authorizationRegistryId: registryId, authorizationRegistryGrantId: grantId },
      }),
  });

  const setText = useCallback((text: string) => setDialog((d) => (d ? { ...d, text } : d)), []);
  const open = (operation: Operation) =>
    setDialog({ operation, text: JSON.stringify(template(operation, registry, grant, known), null, 4) });
  const submit = () => {
    if (!dialog) return;
    let body: unknown;
    try {
      body = JSON.parse(dialog.text);
    } catch {
      setMessage({ title: t("common.errorTitle"), text: t("errors.jsonParsingFailed") });
      return;
    }
    const { operation } = dialog;
    setDialog(null);
    // The last answer goes with a new request: a failure must not stand above an earlier Permit.
    setEvidence(null);
    send.mutate(
      { operation, body },
      {
        onSuccess: ({ data }) => {
          if (operation === "request-delegation") setEvidence(data);
          else setMessage({ title: t("common.successTitle"), text: tt("policyCreated") });
        },
        onError: (error) =>
          setMessage({
            title: t("common.errorTitle"),
            text: t(
              operation === "request-delegation"
                ? "errors.delegationRequestFailure"
                : "errors.policyCreationFailure",
            ),
            detail: explain(error, t),
          }),
      },
    );
  };

  return (
    <>
      <Card className="mb-3">
        <Card.Header>
          <h1 className="h5 mb-0">{tt("title")}</h1>
        </Card.Header>
        <Card.Body>
          {registries.isSuccess && grants.isSuccess && !grants.data.length ? (
            <NothingRegistered registries={registries.data.length} />
          ) : (
            <Row className="g-3">
              <Col md={6}>
                <Form.Label htmlFor="registry">{tt("chooseRegistry")}</Form.Label>
                <Form.Select
                  id="registry"
                  value={registryId}
                  onChange={(e) => {
                    setRegistryId(e.target.value);
                    setGrantId(""); // a grant signs for its own registry only
                  }}
                >
                  <option value="">{t("common.choose")}</option>
                  {registries.data?.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </Form.Select>
              </Col>
              <Col md={6}>
                <Form.Label htmlFor="grant">{tt("chooseGrant")}</Form.Label>
                <Form.Select id="grant" value={grantId} onChange={(e) => setGrantId(e.target.value)}>
                  <option value="">{t("common.choose")}</option>
                  {grants.data
                    ?.filter((g) => g.hasAuthorizationRegistry === registryId)
                    .map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name}
                      </option>
                    ))}
                </Form.Select>
              </Col>
            </Row>
          )}
        </Card.Body>
      </Card>
      {registryId && grantId && (
        <Card>
          <Card.Header className="d-flex flex-wrap gap-2 align-items-center justify-content-between">
            <h2 className="h6 mb-0">{tt("delegation")}</h2>
            <div className="d-flex flex-wrap gap-2">
              <Button size="sm" onClick={() => open("request-delegation")}>
                {tt("sendDelegationRequest")}
              </Button>
              <Button size="sm" variant="outline-primary" onClick={() => open("create-policy")}>
                {tt("createPolicy")}
              </Button>
            </div>
          </Card.Header>
          <Card.Body>
            <ErrorAlert error={send.error} />
            {evidence ? (
              <>
                <h3 className="h6">{tt("result")}</h3>
                <JsonTree value={evidence as object} />
              </>
            ) : (
              <Alert variant="info" className="mb-0">
                {tt("noRequestYet")}
              </Alert>
            )}
          </Card.Body>
        </Card>
      )}
      <Modal
        show={dialog !== null}
        onHide={() => setDialog(null)}
        size="xl"
        aria-labelledby="json-dialog-title"
      >
        <Modal.Header closeButton closeLabel={t("common.close")}>
          <Modal.Title id="json-dialog-title" className="h5">
            {dialog?.operation === "create-policy" ? tt("createPolicy") : tt("sendDelegationRequest")}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Row className="g-3">
            <Col lg={5}>
              {dialog && (
                <PolicyBuilder
                  operation={dialog.operation}
                  registry={registry}
                  grant={grant}
                  subject={dialog.operation === "request-delegation" ? known?.accessSubject : undefined}
                  onJson={setText}
                />
              )}
            </Col>
            <Col lg={7}>
              <Form.Label htmlFor="json-text">
                {dialog?.operation === "create-policy" ? tt("delegationEvidence") : tt("delegationRequest")}
              </Form.Label>
              <Form.Control
                id="json-text"
                as="textarea"
                rows={22}
                className="font-monospace small"
                value={dialog?.text ?? ""}
                onChange={(e) => setText(e.target.value)}
                autoFocus
              />
            </Col>
          </Row>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setDialog(null)}>
            {t("common.cancel")}
          </Button>
          <Button onClick={submit}>
            {dialog?.operation === "create-policy" ? tt("create") : tt("send")}
          </Button>
        </Modal.Footer>
      </Modal>
      <MessageDialog
        show={message !== null}
        title={message?.title ?? ""}
        message={message?.text ?? ""}
        detail={message?.detail}
        onClose={() => setMessage(null)}
      />
    </>
  );
}
