import { getSession, setSession } from "./session.ts";
import { takeEarly } from "./startup.ts";
import { gatewayHeaders } from "./trust/gatewayTokens.ts";

/** A failed call: the server's problem+json body (or an empty object), as the spec says to rethrow it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: {
      title?: string;
      detail?: string;
      errors?: Array<{ path: string; message: string; code?: string; params?: Record<string, unknown> }>;
      [k: string]: unknown;
    },
  ) {
    super(body.title ?? `HTTP ${status}`);
  }
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Called once when the API says the session is over (any 401). */
let onUnauthorized: () => void = () => setSession(null);
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export async function call<T>(
  path: string,
  options: CallOptions = {},
): Promise<{ data: T; etag: string | null }> {
  const session = getSession();
  const url = `/api${path}${options.query ? `?${new URLSearchParams(options.query)}` : ""}`;
  const method = options.method ?? "GET";
  const early = method === "GET" && !options.headers ? takeEarly(url) : undefined;
  const response = await (early ??
    fetch(url, {
      method,
      headers: {
        accept: "application/json",
        // The API writes its messages (problems, field errors, import reports) in the console's language.
        "accept-language": document.documentElement.lang || "en",
        ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
        ...(session ? { authorization: `${session.tokenType} ${session.token}` } : {}),
        ...gatewayHeaders(path),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    }));
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { title: text.slice(0, 200) };
  }
  if (response.status === 401 && session) onUnauthorized();
  if (!response.ok) throw new ApiError(response.status, (body ?? {}) as ApiError["body"]);
  return { data: body as T, etag: response.headers.get("etag") };
}

export const get = async <T>(path: string) => (await call<T>(path)).data;
