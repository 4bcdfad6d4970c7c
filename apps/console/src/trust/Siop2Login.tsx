import { useEffect, useRef, useState } from "react";
import { Button, Spinner } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { services } from "@orrery/model";
import { ApiError, call } from "../api.ts";
import { QrIcon } from "../app/icons.tsx";
import { useFailureDialog } from "../errors/Dialogs.tsx";
import { explain } from "../errors/ErrorAlert.tsx";
import { useCan } from "../permissions.ts";
import { useList, type Item } from "../resources/queries.ts";
import { getSession } from "../session.ts";
import { setGatewayToken } from "./gatewayTokens.ts";

const POLL_MS = 1000;

/** Whether a workspace's service is in SIOP-2 mode: opening it takes a verifiable-credential login. */
export function useSiop2(workspace: Item): boolean {
  const can = useCan();
  const service = useList(services, can.index(services)).data?.find((s) => s.id === workspace.hasService);
  return service?.authorizationRequired === true && service.authorizationMode === "siop2";
}

/** A login started by the API: its state, bound to the workspace and the user, and the verifier's login page. */
interface Siop2State {
  state: string;
  loginUrl: string;
  expiresAt: string;
}

/** The poll answers the access token as text, so it is not one of `call`'s JSON calls; it is the signed-in user's. */
const poll = (state: string, workspaceId: string) => {
  const session = getSession();
  return fetch(`/api/siop2/poll?${new URLSearchParams({ state, workspaceId })}`, {
    headers: {
      "accept-language": document.documentElement.lang || "en",
      ...(session ? { authorization: `${session.tokenType} ${session.token}` } : {}),
    },
  });
};

/**
 * The QR button of a closed workspace behind a VC verifier (spec section 2, Workspaces): the API
 * issues a state for the workspace, a 500x500 popup shows the verifier's login page for it, and the
 * API is polled every second (503: not yet); on success the token is kept for the workspace, the
 * popup closes and the workspace opens. Any other answer, or the state's expiry, stops, closes the
 * popup and says why.
 */
export function Siop2Login({ workspace, onLoggedIn }: { workspace: Item; onLoggedIn: () => void }) {
  const { t } = useTranslation();
  const siop2 = useSiop2(workspace);
  const failure = useFailureDialog();
  const [error, setError] = useState<unknown>();
  const [waiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** Ends the login under way (Cancel): stops polling and closes the popup. */
  const cancel = useRef<() => void>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);
  if (!siop2) return null;

  const start = async () => {
    // Opened at the click, before the API answers, so that the browser does not block it as unasked.
    const popup = window.open("", "orrery-siop2", "width=500,height=500");
    setWaiting(true);
    setError(undefined);
    const stop = (why?: unknown) => {
      clearTimeout(timer.current);
      cancel.current = undefined;
      setWaiting(false);
      popup?.close();
      if (why === undefined) return;
      setError(why);
      failure.show();
    };
    let issued: Siop2State;
    try {
      issued = (
        await call<Siop2State>("/siop2/states", { method: "POST", body: { workspaceId: workspace.id } })
      ).data;
    } catch (err) {
      return stop(err);
    }
    if (popup) popup.location.href = issued.loginUrl;
    cancel.current = () => stop();
    const expiresAt = Date.parse(issued.expiresAt);
    // The next poll once the previous one is answered: the answer that takes the code out may take a
    // while (the verifier's token endpoint), and a poll after it would find the login over.
    const next = () => {
      timer.current = setTimeout(() => void tick(), POLL_MS);
    };
    const tick = async () => {
      if (!mounted.current) return;
      // A popup the user closed is a cancel; a login the wallet never finished says so.
      if (popup?.closed) return stop();
      if (Date.now() > expiresAt) return stop(new Error(t("workspaces.siop2Expired")));
      const response = await poll(issued.state, workspace.id).catch(() => undefined);
      if (!mounted.current) return;
      if (!response || response.status === 503) return next();
      if (response.ok) {
        const token = await response.text();
        stop();
        setGatewayToken(workspace.id, token);
        onLoggedIn();
        return;
      }
      const body = (await response.json().catch(() => ({}))) as ApiError["body"];
      stop(new ApiError(response.status, body));
    };
    next();
  };

  return (
    <>
      <Button
        size="sm"
        variant="outline-primary"
        onClick={() => void start()}
        disabled={waiting}
        aria-label={t("workspaces.siop2Login", { name: workspace.name })}
        title={t("workspaces.siop2Login", { name: workspace.name })}
      >
        <QrIcon />
      </Button>
      {waiting && (
        <span role="status" className="ms-2 small text-body-secondary text-nowrap">
          <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />
          {t("workspaces.siop2Waiting")}
          <Button variant="link" size="sm" className="py-0" onClick={() => cancel.current?.()}>
            {t("common.cancel")}
          </Button>
        </span>
      )}
      {!waiting && error !== undefined && (
        <span role="alert" className="ms-2 small text-danger">
          {explain(error, t) ?? (error as Error).message}
        </span>
      )}
      {failure.dialog(t("workspaces.siop2Failed"), explain(error, t))}
    </>
  );
}
