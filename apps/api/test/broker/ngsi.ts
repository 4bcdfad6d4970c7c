import { startTestApp, type TestApp } from "../support/harness.ts";

/** Calls the embedded broker at /ngsi-ld/v1 in process; JSON bodies are sent as given. */
export interface NgsiResponse {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
}

export const CORE = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
export const linkHeader = (url: string) =>
  `<${url}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`;
export const ERR = (t: string) => `https://uri.etsi.org/ngsi-ld/errors/${t}`;

/**
 * Calls as the holder of `token`, by default an administrator's Orrery token (the broker's policy
 * enforcement point lets an administrator reach every tenant), unless the call sends its own credential.
 */
export function ngsi(t: TestApp, token?: string) {
  let bearer: Promise<string> | undefined;
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<NgsiResponse> => {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    // A broker plugin alone (startPluginBroker) has no enforcement point and no tokens.
    const own =
      !t.tokenFor ||
      Object.keys(headers).some((h) => ["authorization", "x-auth-token"].includes(h.toLowerCase()));
    const credential = own
      ? {}
      : {
          authorization: `Bearer ${await (bearer ??= token ? Promise.resolve(token) : t.tokenFor("admin"))}`,
        };
    const res = await t.app.inject({
      method: method as "GET",
      url: `/ngsi-ld/v1${path}`,
      headers: {
        ...(payload !== undefined ? { "content-type": "application/json" } : {}),
        ...credential,
        ...headers,
      },
      ...(payload !== undefined ? { payload } : {}),
    });
    let parsed: any;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = res.body;
    }
    return {
      status: res.statusCode,
      body: parsed,
      headers: res.headers as NgsiResponse["headers"],
      raw: res.body,
    };
  };
}

export async function startBroker(): Promise<{ t: TestApp; call: ReturnType<typeof ngsi> }> {
  const t = await startTestApp();
  return { t, call: ngsi(t) };
}

let counter = 0;
/** A fresh entity id per test, so that tests in one file do not see each other's entities. */
export const uid = (kind = "Building") =>
  `urn:ngsi-ld:${kind}:${Date.now().toString(36)}${(counter++).toString(36)}`;
