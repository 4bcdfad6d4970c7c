import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { call } from "../api.ts";
import { ConfirmDialog, MessageDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { recordKeys, type Item } from "../resources/queries.ts";
import "texts:workspaces";

/**
 * The published context file of a workspace's data model, or of one type in it. The API serves it
 * on its own address (the console's origin) under /data-models.
 */
export function contextFileUrl(workspace: Item, typeName?: string): string {
  const version = Number(workspace.dataModelVersion ?? 0);
  const type = typeName ? `${encodeURIComponent(typeName)}/` : "";
  return `${window.location.origin}/data-models/${encodeURIComponent(String(workspace.dataModelName))}/${version}/${type}context.jsonld`;
}

/** "Generate": yes/no, then the call, then a success or failure dialog; the workspace is refetched either way. */
export function GenerateDataModel({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const [step, setStep] = useState<"idle" | "confirm" | "done" | "failed">("idle");
  const path = `/workspace/${workspaceId}/data-model/generate`;
  const generate = useMutation({
    mutationFn: () => call<{ dataModelVersion: number }>(path, { method: "POST" }),
    onSuccess: () => setStep("done"),
    onError: () => setStep("failed"),
    onSettled: () => client.invalidateQueries({ queryKey: recordKeys.kind("workspaces") }),
  });
  if (!can.can("POST", path)) return null;
  return (
    <>
      <Button variant="outline-primary" size="sm" onClick={() => setStep("confirm")}>
        {t("dataModel.generate")}
      </Button>
      {/* Among the header\'s buttons: on a line of its own, after them. */}
      <ErrorAlert error={generate.error} className="w-100 order-last mb-0" />
      <ConfirmDialog
        show={step === "confirm"}
        message={t("dataModel.confirmGenerate")}
        onYes={() => {
          setStep("idle");
          generate.mutate();
        }}
        onNo={() => setStep("idle")}
      />
      <MessageDialog
        show={step === "done"}
        title={t("common.successTitle")}
        message={t("dataModel.generated", { version: generate.data?.data.dataModelVersion ?? "" })}
        onClose={() => setStep("idle")}
      />
      <MessageDialog
        show={step === "failed"}
        title={t("common.errorTitle")}
        message={t("dataModel.generationFailed")}
        detail={explain(generate.error, t)}
        onClose={() => setStep("idle")}
      />
    </>
  );
}
