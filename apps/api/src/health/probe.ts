import { performance } from "node:perf_hooks";
import type { Message } from "../messages/say.ts";
import { CrossOriginRedirect, fetchWithin, TooManyRedirects, unreachableCause } from "../peers.ts";
import { reasonOf } from "../trust/registry.ts";
import { certificateProblems } from "./certificate.ts";

/** What a peer answered to one request of a check. */
export interface Answer {
  status: number;
  /** The body parsed when it is JSON; undefined otherwise. */
  json?: unknown;
  text: string;
  html: boolean;
  path: string;
  headers: Headers;
}

/** One request of a check, and how its answer is judged. */
export interface Attempt {
  url: string;
  init?: RequestInit;
  /** Whether the answer shows the component at work (a 2xx JSON by default). */
  alive?: (answer: Answer) => boolean;
  /** A 401 or 403 that is not a page: the component is there and wants a token (a broker behind a gateway). */
  authorizationMeansUp?: boolean;
}

export type ProbeOutcome =
  | { kind: "answered"; answer: Answer; ms: number; note?: Message }
  | { kind: "wrongAnswer"; reasons: Message[]; ms: number }
  | { kind: "unreachable"; reasons: Message[]; ms: number };

const isPage = (text: string, contentType: string) =>
  /html/i.test(contentType) || /^\s*<(!doctype|html|body|head)\b/i.test(text);

/** The path of a URL as a reader recognises it, without its query. */
const pathOf = (url: string) => new URL(url).pathname;

/** A JSON answer with a 2xx status. */
export const jsonOk = (a: Answer) => a.status >= 200 && a.status < 300 && a.json !== undefined;

/** The component's answer to one request within `timeoutMs`, and what it says of its health. */
export async function probe(attempt: Attempt, timeoutMs: number): Promise<ProbeOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let response: Response;
  try {
    response = await fetchWithin(
      attempt.url,
      { ...attempt.init, headers: { accept: "application/json", ...attempt.init?.headers } },
      timeoutMs,
      // A status answer is small: a component that streams megabytes at us is not answering it.
      1024 * 1024,
      "health-check",
    );
  } catch (err) {
    const ms = elapsed();
    return { kind: "unreachable", reasons: await unreachableReasons(err, attempt.url, timeoutMs), ms };
  }
  const ms = elapsed();
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const answer: Answer = {
    status: response.status,
    json,
    text,
    html: isPage(text, contentType),
    path: pathOf(attempt.url),
    headers: response.headers,
  };
  if ((attempt.alive ?? jsonOk)(answer)) return { kind: "answered", answer, ms };
  if (attempt.authorizationMeansUp && (answer.status === 401 || answer.status === 403) && !answer.html)
    return {
      kind: "answered",
      answer,
      ms,
      note: { code: "health.asksAuthorization", params: { path: answer.path, status: answer.status } },
    };
  return { kind: "wrongAnswer", reasons: [wrongAnswer(answer)], ms };
}

/** Why an answer is not the one due: a page, a status, or a body that is not JSON. */
export function wrongAnswer(answer: Answer): Message {
  const { status, path } = answer;
  if (answer.html)
    return { code: "health.htmlPage", params: { status, path, reason: reasonOf(answer.text) } };
  if (status >= 200 && status < 300 && answer.json === undefined)
    return { code: "health.notJson", params: { status, path } };
  return {
    code: "health.unexpectedStatus",
    params: { status, path, reason: reasonOf(answer.json ?? answer.text) },
  };
}

/** Certificate and TLS failures as node names them (OpenSSL's verify codes, node's own). */
const tlsCodes =
  /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH|ERR_SSL_|EPROTO$)/;

/** Why a request got no answer, in words: refused, timed out, unknown host, TLS and the certificate's problems. */
export async function unreachableReasons(err: unknown, url: string, timeoutMs: number): Promise<Message[]> {
  if (err instanceof CrossOriginRedirect)
    return [{ code: "health.crossOriginRedirect", params: { location: err.location } }];
  if (err instanceof TooManyRedirects) return [{ code: "health.tooManyRedirects" }];
  const cause = unreachableCause(err);
  const target = new URL(url);
  const address = target.host;
  if (cause === "TimeoutError" || cause === "AbortError" || cause === "UND_ERR_CONNECT_TIMEOUT")
    return [{ code: "health.timedOut", params: { seconds: Math.round(timeoutMs / 100) / 10 } }];
  if (cause === "ECONNREFUSED") return [{ code: "health.refused", params: { address } }];
  if (cause === "ENOTFOUND" || cause === "EAI_AGAIN")
    return [{ code: "health.unknownHost", params: { host: target.hostname } }];
  if (
    /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG/.test(cause) ||
    (cause === "EPROTO" && /version/i.test(String((err as { cause?: Error }).cause?.message)))
  )
    return [{ code: "health.notTls", params: { address } }];
  if (tlsCodes.test(cause)) {
    const port = Number(target.port) || 443;
    const problems = await certificateProblems(
      target.hostname.replace(/^\[|\]$/g, ""),
      port,
      timeoutMs,
      cause,
    );
    return [{ code: "health.tls" }, ...problems];
  }
  if (cause === "ECONNRESET" || cause === "UND_ERR_SOCKET" || cause === "EPIPE")
    return [{ code: "health.connectionClosed", params: { cause } }];
  return [{ code: "health.unreachable", params: { cause } }];
}
