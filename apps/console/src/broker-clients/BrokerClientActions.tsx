import { useState } from "react";
import { Alert, Button } from "react-bootstrap";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../i18n/index.ts";
import { brokerClients, itemPath } from "@orrery/model";
import { call } from "../api.ts";
import { notify } from "../app/Toasts.tsx";
import { ConfirmDialog, useFailureDialog } from "../errors/Dialogs.tsx";
import { ErrorAlert, explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { recordKeys, useItem, type Item } from "../resources/queries.ts";
import { useHandedOver } from "../resources/shownOnce.ts";
import { ClientKeyDialog } from "./ClientKeyDialog.tsx";
import "texts:broker-clients";

type Action = "key" | "revoke";

/**
 * What a broker client's page has of its own: the key its create answered, shown once; New key,
 * which replaces the key and shows the new one once; Revoke, asked first. Both send the ETag read
 * (If-Match), so that a change made meanwhile is not overridden unseen.
 */
export function BrokerClientActions({ client }: { client: Item }) {
  const { t } = useTranslation();
  const can = useCan();
  const queries = useQueryClient();
  const { data: read } = useItem(brokerClients, client.id);
  const [handed, forgetHanded] = useHandedOver(client.id);
  const [renewed, setRenewed] = useState<string>();
  const [asking, setAsking] = useState<Action>();
  const failure = useFailureDialog();
  const path = itemPath(brokerClients, client.id);
  const act = useMutation({
    mutationFn: (action: Action) =>
      call<Item>(`${path}/${action}`, {
        method: "POST",
        headers: read?.etag ? { "if-match": read.etag } : {},
      }),
    onSuccess: async ({ data }, action) => {
      if (action === "key") setRenewed(String(data.key));
      else notify(t("brokerClients.revokedDone", { name: client.name }));
      await queries.invalidateQueries({ queryKey: recordKeys.kind(brokerClients.kind) });
    },
    onError: () => failure.show(),
  });
  const revoked = client.revoked === true;
  const allowed = (action: Action) => can.can("POST", `${path}/${action}`);
  const tenants = (client.tenants as string[] | undefined) ?? [];
  return (
    <div className="mt-3">
      {revoked && <Alert variant="secondary">{t("brokerClients.revokedNote")}</Alert>}
      <ErrorAlert error={act.error} />
      {!revoked && (allowed("key") || allowed("revoke")) && (
        <div className="d-flex gap-2">
          {allowed("key") && (
            <Button
              size="sm"
              variant="outline-primary"
              disabled={act.isPending}
              onClick={() => setAsking("key")}
            >
              {t("brokerClients.newKey")}
            </Button>
          )}
          {allowed("revoke") && (
            <Button
              size="sm"
              variant="outline-danger"
              disabled={act.isPending}
              onClick={() => setAsking("revoke")}
            >
              {t("brokerClients.revoke")}
            </Button>
          )}
        </div>
      )}
      <ConfirmDialog
        show={asking !== undefined}
        message={t(asking === "revoke" ? "brokerClients.confirmRevoke" : "brokerClients.confirmNewKey", {
          name: client.name,
        })}
        onYes={() => {
          act.mutate(asking!);
          setAsking(undefined);
        }}
        onNo={() => setAsking(undefined)}
      />
      {failure.dialog(
        t(act.variables === "revoke" ? "brokerClients.revokeFailed" : "brokerClients.newKeyFailed"),
        explain(act.error, t),
      )}
      <ClientKeyDialog
        clientKey={renewed ?? handed}
        name={client.name}
        tenants={tenants}
        onClose={() => {
          setRenewed(undefined);
          forgetHanded();
          // The mutation's answer held the key: it goes too.
          act.reset();
        }}
      />
    </div>
  );
}
