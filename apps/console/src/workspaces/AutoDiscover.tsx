import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { workspaces } from "@orrery/model";
import { call } from "../api.ts";
import { ConfirmDialog, MessageDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { recordKeys, useItem } from "../resources/queries.ts";
import "texts:workspaces";

/** What POST .../data-model/auto-discover answers: what it added, and what it left out and why. */
export interface Discovery {
  types: string[];
  properties: Array<{ type: string; name: string }>;
  skipped: Array<{ type: string; name: string; reason: string }>;
}

/** The success dialog's content: counts, then the names. */
function DiscoveryReport({ report }: { report: Discovery }) {
  const { t } = useTranslation();
  const nothing = report.types.length === 0 && report.properties.length === 0;
  return (
    <div className="mt-2" data-testid="auto-discover-report">
      {nothing && <p className="mb-2">{t("dataModel.nothingDiscovered")}</p>}
      {report.types.length > 0 && (
        <>
          <h3 className="h6 mt-2">{t("dataModel.discoveredTypes", { count: report.types.length })}</h3>
          <ul className="mb-2">
            {report.types.map((name) => (
              <li key={name} className="text-break">
                {name}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.properties.length > 0 && (
        <>
          <h3 className="h6 mt-2">
            {t("dataModel.discoveredProperties", { count: report.properties.length })}
          </h3>
          <ul className="mb-2">
            {report.properties.map((p) => (
              <li key={`${p.type}.${p.name}`} className="text-break">
                {p.type}: {p.name}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.skipped.length > 0 && (
        <>
          <h3 className="h6 mt-2">{t("dataModel.skipped", { count: report.skipped.length })}</h3>
          <ul className="mb-0">
            {report.skipped.map((s) => (
              <li key={`${s.type}.${s.name}`} className="text-break">
                {s.type}: {s.name} ({s.reason})
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * "Auto-discover" (spec sections 2 and 4): only while the data model is up to date and with the
 * permission; yes/no, the call, a success dialog telling what was added or a failure dialog, then
 * the workspace, its types and its properties are refetched (the original refetched only the workspace).
 */
export function AutoDiscover({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const workspace = useItem(workspaces, workspaceId).data?.data;
  const [step, setStep] = useState<"idle" | "confirm" | "done" | "failed">("idle");
  const path = `/workspace/${workspaceId}/data-model/auto-discover`;
  const discover = useMutation({
    mutationFn: () => call<Discovery>(path, { method: "POST" }),
    onSuccess: () => setStep("done"),
    onError: () => setStep("failed"),
    onSettled: () =>
      Promise.all(
        ["workspaces", "types", "properties"].map((kind) =>
          client.invalidateQueries({ queryKey: recordKeys.kind(kind) }),
        ),
      ),
  });
  // The button needs an up-to-date model, but the dialogs must survive the refetch that outdates it.
  const visible = can.can("POST", path) && workspace?.dataModelUpToDate === true;
  if (!visible && step === "idle" && !discover.error) return null;
  return (
    <>
      {visible && (
        <Button variant="outline-primary" size="sm" onClick={() => setStep("confirm")}>
          {t("dataModel.autoDiscover")}
        </Button>
      )}
      {/* Among the header\'s buttons: on a line of its own, after them. */}
      <ErrorAlert error={discover.error} className="w-100 order-last mb-0" />
      <ConfirmDialog
        show={step === "confirm"}
        message={t("dataModel.confirmAutoDiscover")}
        onYes={() => {
          setStep("idle");
          discover.mutate();
        }}
        onNo={() => setStep("idle")}
      />
      <MessageDialog
        show={step === "done"}
        title={t("common.successTitle")}
        message={t("dataModel.autoDiscovered")}
        onClose={() => setStep("idle")}
      >
        {discover.data && <DiscoveryReport report={discover.data.data} />}
      </MessageDialog>
      <MessageDialog
        show={step === "failed"}
        title={t("common.errorTitle")}
        message={t("dataModel.autoDiscoverFailed")}
        detail={explain(discover.error, t)}
        onClose={() => setStep("idle")}
      />
    </>
  );
}
