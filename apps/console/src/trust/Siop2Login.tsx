import { useEffect, useRef, useState } from "react";
import { Button } from "react-bootstrap";
import { useTranslation } from "react-i18next";
import { services, vcVerifiers } from "@orrery/model";
import { ApiError } from "../api.ts";
import { QrIcon } from "../app/icons.tsx";
import { useFailureDialog } from "../errors/Dialogs.tsx";
import { explain } from "../errors/ErrorAlert.tsx";
import { useCan, useConsoleConfig } from "../permissions.ts";
import { useList, type Item } from "../resources/queries.ts";
import { setGatewayToken } from "./gatewayTokens.ts";

const POLL_MS = 1000;
/** A login not finished by then stops being polled (the API forgets its code after a few minutes). */
const GIVE_UP_MS = 5 * 60_000;

/** The VC verifier of a workspace whose service is in SIOP-2 mode, with the service's client id. */
export function useSiop2(workspace: Item) {
  const can = useCan();
  const service = useList(services, can.index(services)).data?.find((s) => s.id === workspace.hasService);
  const siop2 = service?.authorizationRequired === true && service.authorizationMode === "siop2";
  const verifier = useList(vcVerifiers, siop2 && can.index(vcVerifiers)).data?.find(
    (v) => v.id === service?.hasVCVerifier,
  );
  return siop2 && verifier ? { verifier, clientId: String(service.clientId ?? "") } : undefined;
}

const base = (v: Item) =>
  `${String(v.scheme)}://${String(v.host)}:${String(v.port)}${String(v.path ?? "")}`.replace(/\/$/, "");

/**
 * The QR button of a closed workspace behind a VC verifier (spec section 2, Workspaces): a 500x500
 * popup on the verifier's login page for a fresh state, the API polled every second (503: not yet);
 * on success the token is kept for the workspace, the popup closes and the workspace opens. Any other
 * answer stops, closes the popup and says why.
 */
export function Siop2Login({ workspace, onLoggedIn }: { workspace: Item; onLoggedIn: () => void }) {
  const { t } = useTranslation();
  const siop2 = useSiop2(workspace);
  const settings = useConsoleConfig().data;
  const failure = useFailureDialog();
  const [error, setError] = useState<unknown>();
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);
  if (!siop2) return null;

  const start = () => {
    const state = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    const login = new URL(`${base(siop2.verifier)}/api/v1/loginQR`);
    login.search = new URLSearchParams({
      state,
      client_id: siop2.clientId,
      client_callback: settings?.siop2CallbackUrl ?? `${window.location.origin}/api/siop2/callback`,
    }).toString();
    const popup = window.open(login.toString(), "orrery-siop2", "width=500,height=500");
    const started = Date.now();
    setWaiting(true);
    const stop = () => {
      clearInterval(timer.current);
      setWaiting(false);
      popup?.close();
    };
    timer.current = setInterval(async () => {
      if (popup?.closed || Date.now() - started > GIVE_UP_MS) return stop();
      const response = await fetch(
        `/api/siop2/poll?${new URLSearchParams({ state, workspaceId: workspace.id })}`,
      ).catch(() => undefined);
      if (!response || response.status === 503) return;
      stop();
      if (response.ok) {
        setGatewayToken(workspace.id, await response.text());
        onLoggedIn();
        return;
      }
      const body = (await response.json().catch(() => ({}))) as ApiError["body"];
      setError(new ApiError(response.status, body));
      failure.show();
    }, POLL_MS);
  };

  return (
    <>
      <Button
        size="sm"
        variant="outline-primary"
        onClick={start}
        disabled={waiting}
        aria-label={t("workspaces.siop2Login", { name: workspace.name })}
        title={t("workspaces.siop2Login", { name: workspace.name })}
      >
        <QrIcon />
      </Button>
      {failure.dialog(t("workspaces.siop2Failed"), explain(error, t))}
    </>
  );
}
