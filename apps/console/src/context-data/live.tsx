import { useQueryClient } from "@tanstack/react-query";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { useEffect, useState } from "react";
import { Badge } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { authorization, entityKeys } from "./entityQueries.ts";
import { changedEntity, patchCachedEntities, type ChangedEntity } from "./livePatch.ts";

/** How often a screen refreshes itself when the broker cannot tell the API of changes. */
export const POLL_SECONDS = 10;
/** How long a screen polls before it tries the live stream again. */
const RETRY_LIVE_MS = 60_000;
/**
 * A change is drawn at once from the event (livePatch.ts) and read again on the next tick (issue
 * 38: another client's write on screen in under 100 ms); the changes that follow (an import, a
 * batch) read the screen again at most this often, so that a long import reads the lists a few
 * times a second, not once a notification.
 */
const SETTLE_MS = 150;

export type LiveState = { mode: "connecting" } | { mode: "live" } | { mode: "polling"; seconds: number };

/** What a screen watches: every entity of a type, or one entity. */
export interface LiveWatch {
  workspaceId: string;
  type: string;
  entityId?: string;
}

/**
 * Opens the API's stream of changes (Server-Sent Events, `GET /api/workspace/{id}/live/entities`)
 * with the session's headers (an EventSource cannot send them), and calls `changed` for each
 * changed entity (undefined when the event is not one). Resolves when the stream ends; rejects
 * when it cannot be opened or breaks.
 */
export async function streamChanges(
  watch: LiveWatch,
  on: { opened: () => void; changed: (entity: ChangedEntity | undefined) => void },
  signal: AbortSignal,
): Promise<void> {
  const query = new URLSearchParams({ type: watch.type, ...(watch.entityId ? { id: watch.entityId } : {}) });
  const url = `/api/workspace/${encodeURIComponent(watch.workspaceId)}/live/entities?${query}`;
  const response = await fetch(url, {
    headers: { ...authorization(url), accept: "text/event-stream" },
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`live: ${response.status}`);
  on.opened();
  const events = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    on.changed(changedEntity(parsed(value.data)));
  }
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Keeps a screen's entities (the lists, the entity, its history) up to date by themselves: live
 * from the API's stream (each change drawn from its event, then read again, except the lists and
 * entity the changes left as they were), or, when the broker cannot reach the API (the stream
 * fails), by polling every POLL_SECONDS, trying the stream again after a while. Returns the state
 * the screen shows.
 */
export function useLiveEntities(watch: LiveWatch | undefined): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>({ mode: "connecting" });
  const { workspaceId = "", type = "", entityId } = watch ?? {};
  useEffect(() => {
    if (!workspaceId || !type) return;
    const abort = new AbortController();
    let settle: ReturnType<typeof setTimeout> | undefined;
    let pending = false;
    let reading = false;
    let lastRead = -Infinity;
    let poll: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    // The changes since the last read began, and for each query how many of them left it as it was.
    let changes = 0;
    let untouched = new Map<string, number>();
    // The changes drawn while a read runs: drawn again over its answer, which may predate them.
    let duringRead: ChangedEntity[] = [];
    // Reads the screen's entities again, and once more after that if a change came meanwhile. A
    // read is never cut short by the next change (TanStack's invalidation would cancel it and
    // start again, so that a busy server showed nothing until the changes stopped).
    const refresh = async () => {
      settle = undefined;
      pending = false;
      reading = true;
      lastRead = Date.now();
      const unread = new Set([...untouched].filter(([, n]) => n === changes).map(([hash]) => hash));
      changes = 0;
      untouched = new Map();
      duringRead = [];
      await Promise.all([
        client.invalidateQueries({
          queryKey: entityKeys.all(workspaceId),
          predicate: (query) => !unread.has(query.queryHash),
        }),
        client.invalidateQueries({ queryKey: ["context-data", workspaceId, "temporal"] }),
      ]).finally(() => (reading = false));
      for (const entity of duringRead) patchCachedEntities(client, workspaceId, entity);
      duringRead = [];
      if (pending && !abort.signal.aborted) schedule();
    };
    // The first change on the next tick (those read from one chunk of the stream come together);
    // the next ones at most every SETTLE_MS.
    const schedule = () => {
      settle = setTimeout(() => void refresh(), Math.max(0, lastRead + SETTLE_MS - Date.now()));
    };
    const changed = (entity: ChangedEntity | undefined) => {
      changes++;
      if (entity) {
        for (const hash of patchCachedEntities(client, workspaceId, entity))
          untouched.set(hash, (untouched.get(hash) ?? 0) + 1);
        if (reading) duringRead.push(entity);
      }
      pending = true;
      if (!reading && settle === undefined) schedule();
    };
    const open = () => {
      clearInterval(poll);
      setState({ mode: "connecting" });
      const opened = () => setState({ mode: "live" });
      streamChanges({ workspaceId, type, entityId }, { opened, changed }, abort.signal).then(
        () => !abort.signal.aborted && fallBack(),
        () => !abort.signal.aborted && fallBack(),
      );
    };
    const fallBack = () => {
      setState({ mode: "polling", seconds: POLL_SECONDS });
      poll = setInterval(() => void refresh(), POLL_SECONDS * 1000);
      retry = setTimeout(open, RETRY_LIVE_MS);
    };
    open();
    return () => {
      abort.abort();
      clearTimeout(settle);
      clearInterval(poll);
      clearTimeout(retry);
    };
  }, [client, workspaceId, type, entityId]);
  return state;
}

/** Says how a screen keeps itself up to date: live, or refreshed every few seconds. */
export function LiveBadge({ state }: { state: LiveState }) {
  const { t } = useTranslation();
  if (state.mode === "connecting") return null;
  return state.mode === "live" ? (
    <Badge bg="success" pill title={t("live.onHint")} data-testid="live-state">
      ● {t("live.on")}
    </Badge>
  ) : (
    <Badge bg="secondary" pill title={t("live.pollingHint")} data-testid="live-state">
      {t("live.polling", { seconds: state.seconds })}
    </Badge>
  );
}
