import { useState } from "react";
import { Button, Modal } from "react-bootstrap";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { roles } from "@orrery/model";
import { call } from "../api.ts";
import { ConfirmDialog, MessageDialog, useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { recordKeys, type Item } from "../resources/queries.ts";

type Step = "confirm" | "effect" | "done" | undefined;

/**
 * A role's Synchronize button (spec section 2, Roles): asked yes or no, then Permit or Deny, the
 * role's accesses go to the workspace's authorization registry as a policy; the role is read again,
 * showing when and what was sent. A refusal shows the registry's reason.
 */
export function SynchronizeRole({ role }: { role: Item }) {
  const { t } = useTranslation();
  const { workspaceId = "" } = useParams();
  const can = useCan();
  const client = useQueryClient();
  const [step, setStep] = useState<Step>();
  const failure = useFailureDialog();
  const synchronize = useMutation({
    mutationFn: (effect: "Permit" | "Deny") =>
      call(`/workspace/${encodeURIComponent(workspaceId)}/roles/${encodeURIComponent(role.id)}/synchronize`, {
        method: "POST",
        body: { effect },
      }),
    onSuccess: async () => {
      setStep("done");
      await client.invalidateQueries({ queryKey: recordKeys.kind(roles.kind) });
    },
    onError: failure.show,
  });
  if (!can.update(roles, role.id)) return null;
  const choose = (effect: "Permit" | "Deny") => {
    setStep(undefined);
    synchronize.mutate(effect);
  };
  return (
    <div className="mt-3">
      <Button
        size="sm"
        variant="outline-primary"
        onClick={() => setStep("confirm")}
        disabled={synchronize.isPending}
      >
        {t("synchronization.role")}
      </Button>
      <ErrorAlert error={synchronize.error} className="mt-3 mb-0" />
      <ConfirmDialog
        show={step === "confirm"}
        message={t("synchronization.confirmRole", { name: role.name })}
        onYes={() => setStep("effect")}
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
        <Modal.Body>{t("synchronization.effectQuestion", { name: role.name })}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setStep(undefined)}>
            {t("common.cancel")}
          </Button>
          <Button variant="outline-danger" onClick={() => choose("Deny")}>
            {t("synchronization.deny")}
          </Button>
          <Button variant="success" onClick={() => choose("Permit")} autoFocus>
            {t("synchronization.permit")}
          </Button>
        </Modal.Footer>
      </Modal>
      <MessageDialog
        show={step === "done"}
        title={t("common.successTitle")}
        message={t("synchronization.roleDone", { name: role.name })}
        onClose={() => setStep(undefined)}
      />
      {failure.dialog(t("synchronization.roleFailed"), explain(synchronize.error, t))}
    </div>
  );
}
