import { useState } from "react";
import { Alert, Button, Modal } from "react-bootstrap";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { useParams } from "react-router";
import { contractDetails, contracts, roles, services, workspaces, type KindDefinition } from "@orrery/model";
import { ApiError, call } from "../api.ts";
import { ConfirmDialog, MessageDialog, useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { recordKeys, useItem, type Item } from "../resources/queries.ts";
import { useTitle } from "../resources/titles.ts";
import { isFdsc, roleSyncTexts } from "../fdsc/FdscLinks.tsx";
import "texts:trust";

type Effect = "Permit" | "Deny";

/**
 * A record's Synchronize button (spec section 2): asked yes or no (and for a role, Permit or
 * Deny), it calls the record's synchronize route, reads the record again, and says how it went in a
 * success or error dialog; a refusal's reason stays in the error alert.
 */
function Synchronize({
  kind,
  item,
  effects,
  missing,
  texts,
}: {
  kind: KindDefinition;
  item: Item;
  effects?: boolean;
  /** What the workspace lacks for this synchronisation (its registry): the button is disabled and says so. */
  missing?: string;
  /** The texts' keys when they are not the kind's (a role synchronised with a PAP in FDSC mode). */
  texts?: Record<"button" | "confirm" | "done" | "failed", string>;
}) {
  const { t } = useTranslation();
  const { workspaceId = "" } = useParams();
  const client = useQueryClient();
  const [step, setStep] = useState<"confirm" | "effect" | "done">();
  const failure = useFailureDialog();
  const [lines, setLines] = useState<string[]>([]);
  const key = `synchronization.${kind.routeName}`;
  const text = (which: "button" | "confirm" | "done" | "failed") => texts?.[which] ?? `${key}.${which}`;
  const synchronize = useMutation({
    mutationFn: (effect?: Effect) =>
      call(
        `/workspace/${encodeURIComponent(workspaceId)}/${kind.kind}/${encodeURIComponent(item.id)}/synchronize`,
        {
          method: "POST",
          ...(effect ? { body: { effect } } : {}),
        },
      ),
    onSuccess: async ({ data }) => {
      setLines(linesOf(data));
      setStep("done");
      await client.invalidateQueries({ queryKey: recordKeys.kind(kind.kind) });
    },
    onError: (error) => {
      setLines(error instanceof ApiError ? linesOf(error.body) : []);
      failure.show();
    },
  });
  const run = (effect?: Effect) => {
    setStep(undefined);
    synchronize.mutate(effect);
  };
  const name = useTitle(kind, item) ?? item.id;
  return (
    <div className="mt-3">
      <Button
        size="sm"
        variant="outline-primary"
        onClick={() => setStep("confirm")}
        disabled={synchronize.isPending || !!missing}
        aria-describedby={missing ? `${kind.kind}-sync-missing` : undefined}
      >
        {t(text("button"))}
      </Button>
      {missing && (
        <p id={`${kind.kind}-sync-missing`} className="small text-body-secondary mt-2 mb-0">
          {missing}
        </p>
      )}
      <ErrorAlert error={synchronize.error} className="mt-3 mb-0" />
      <ConfirmDialog
        show={step === "confirm"}
        message={t(text("confirm"), { name })}
        onYes={() => (effects ? setStep("effect") : run())}
        onNo={() => setStep(undefined)}
      />
      <Modal
        show={step === "effect"}
        onHide={() => setStep(undefined)}
        centered
        aria-labelledby="effect-title"
      >
        <Modal.Header closeButton closeLabel={t("common.close")}>
          <Modal.Title id="effect-title" className="h5">
            {t("synchronization.effectTitle")}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{t("synchronization.effectQuestion", { name })}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setStep(undefined)}>
            {t("common.cancel")}
          </Button>
          <Button variant="outline-danger" onClick={() => run("Deny")}>
            {t("synchronization.deny")}
          </Button>
          <Button variant="success" onClick={() => run("Permit")} autoFocus>
            {t("synchronization.permit")}
          </Button>
        </Modal.Footer>
      </Modal>
      <MessageDialog
        show={step === "done"}
        title={t("common.successTitle")}
        message={t(text("done"), { name })}
        onClose={() => setStep(undefined)}
        size={lines.length ? "lg" : undefined}
      >
        <Lines lines={lines} />
      </MessageDialog>
      {failure.dialog(
        t(text("failed")),
        explain(synchronize.error, t),
        <Lines lines={lines} />,
        lines.length ? "lg" : undefined,
      )}
    </div>
  );
}

/** The message lines a synchronisation answers (a contract detail's steps in the identity manager). */
const linesOf = (body: unknown): string[] => {
  const details = (body as { details?: unknown } | null)?.details;
  return Array.isArray(details) ? details.map(String) : [];
};

function Lines({ lines }: { lines: string[] }) {
  if (!lines.length) return null;
  return (
    <ol className="list-unstyled small font-monospace mt-3 mb-0" data-testid="synchronization-lines">
      {lines.map((line, i) => (
        <li key={i} className={line.startsWith("❌") ? "text-danger" : undefined}>
          {line}
        </li>
      ))}
    </ol>
  );
}

/** The workspace of the route, read when the user may synchronise (what it lacks is said before asking). */
function useWorkspace(enabled: boolean) {
  const { workspaceId } = useParams();
  return useItem(workspaces, workspaceId, enabled).data?.data;
}

/** A contract detail's: its role and path permissions in the workspace's identity manager, step by step. */
export function SynchronizeContractDetail({ detail }: { detail: Item }) {
  const { t } = useTranslation();
  const can = useCan();
  const allowed = can.update(contractDetails, detail.id);
  const workspace = useWorkspace(allowed);
  if (!allowed) return null;
  const missing =
    workspace && !(workspace.hasIdentityManager && workspace.hasIdentityManagerGrant)
      ? t("synchronization.contractDetails.missing")
      : undefined;
  return <Synchronize kind={contractDetails} item={detail} missing={missing} />;
}

/** A role's: Permit or Deny its accesses in the authorization registry; needs update permission. */
export function SynchronizeRole({ role }: { role: Item }) {
  const { t } = useTranslation();
  const can = useCan();
  const allowed = can.update(roles, role.id);
  const workspace = useWorkspace(allowed);
  // In FDSC mode the role's policies go to the service's PAP instead (fdsc/role-sync.ts on the server).
  const serviceId = workspace?.hasService as string | undefined;
  const service = useItem(services, serviceId, allowed && !!serviceId && can.show(services, serviceId ?? ""));
  // Set by the server, in the same transaction, when an edit alters the policy the role would write.
  const changed = role.synchronized !== true && role.changedSinceSynchronization === true && (
    <Alert variant="warning" className="mt-3 mb-0" data-testid="role-changed-since-synchronization">
      {t("synchronization.roles.changed")}
    </Alert>
  );
  if (!allowed) return changed || null;
  const missing =
    workspace &&
    !isFdsc(service.data?.data) &&
    !(workspace.hasAuthorizationRegistry && workspace.hasAuthorizationRegistryGrant)
      ? t("synchronization.roles.missing")
      : undefined;
  return (
    <>
      {changed}
      <Synchronize
        kind={roles}
        item={role}
        effects
        missing={missing}
        texts={isFdsc(service.data?.data) ? roleSyncTexts : undefined}
      />
    </>
  );
}

/** A contract's: only when the workspace's service is in SIOP-2 mode, with update permission (spec section 2). */
export function SynchronizeContract({ contract }: { contract: Item }) {
  const { t } = useTranslation();
  const can = useCan();
  // Only those who may synchronise read the service: a reader without the right would be refused.
  const allowed = can.update(contracts, contract.id);
  const workspace = useWorkspace(allowed);
  const serviceId = workspace?.hasService as string | undefined;
  const service = useItem(services, serviceId, allowed && !!serviceId && can.show(services, serviceId ?? ""))
    .data?.data;
  if (!allowed || service?.authorizationMode !== "siop2") return null;
  const missing =
    !service.hasVCVerifier || !service.hasTrustedIssuersList
      ? t("synchronization.contracts.missing")
      : undefined;
  return <Synchronize kind={contracts} item={contract} missing={missing} />;
}
