import {
  authorizationRegistries,
  authorizationRegistryGrants,
  contextBrokers,
  credentialsConfigServices,
  identityManagerGrants,
  identityManagers,
  policyAdministrationPoints,
  temporalServices,
  trustedIssuersLists,
  vcVerifiers,
  type KindDefinition,
} from "@orrery/model";
import { address } from "../context-data/broker-access.ts";
import { fetchWithin } from "../peers.ts";
import { ownBrokerBearer } from "../pep/internal.ts";
import type { Message } from "../messages/say.ts";
import { notFound, Problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { requireOwnGrant } from "../trust/grant-peer.ts";
import { clientAssertion } from "../trust/ishare.ts";
import { reasonOf, registryAndGrant } from "../trust/registry.ts";
import { jsonOk, probe, type Answer, type Attempt, type ProbeOutcome } from "./probe.ts";

type Row = NonNullable<Awaited<ReturnType<Records["find"]>>>;
type Data = Record<string, unknown>;

export type HealthState = "up" | "down" | "notApplicable";

/** One check of a component: its state, why (sentences), the round trip of its main request, its version. */
export interface CheckResult {
  state: HealthState;
  reasons: Message[];
  roundTripMs?: number;
  version?: string;
}

/** The kinds whose records are components of the data space that Orrery talks to. */
export const checkedKinds: readonly KindDefinition[] = [
  contextBrokers,
  temporalServices,
  identityManagers,
  identityManagerGrants,
  authorizationRegistries,
  authorizationRegistryGrants,
  vcVerifiers,
  trustedIssuersLists,
  policyAdministrationPoints,
  credentialsConfigServices,
];

const text = (v: unknown) => (typeof v === "string" && v ? v : undefined);
const field = (body: unknown, ...path: string[]) =>
  text(path.reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Data)[k] : undefined), body));
const base = (d: Data) => address(d).replace(/\/$/, "");

/**
 * Where each broker implementation tells its version, and how to read it: Orion-LD's /version
 * (`"Orion-LD version"`), Scorpio's Quarkus info endpoint, Stellio's Spring Boot actuator (both
 * `build.version` when their build exposes it), the embedded broker's. A broker that does not
 * answer it is still up; its version is then unknown.
 */
const brokerVersions: Record<string, { path: string; read: (body: unknown) => string | undefined }> = {
  "orion-ld": {
    path: "/version",
    read: (b) =>
      Object.entries((b ?? {}) as Data).find(([k]) => /^orion-?ld version$/i.test(k))?.[1] as
        string | undefined,
  },
  scorpio: { path: "/q/info", read: (b) => field(b, "build", "version") },
  stellio: { path: "/actuator/info", read: (b) => field(b, "build", "version") },
  orrery: {
    path: "/ngsi-ld/ex/v1/version",
    read: (b) => {
      const v = field(b, "orrery-broker", "version");
      const api = field(b, "orrery-broker", "ngsi-ld");
      return v && (api ? `${v} (NGSI-LD ${api})` : v);
    },
  },
};

/** Any answer: the caller judges it (a token endpoint's refusal is an answer too). */
const anyAnswer = () => true;

/** The state an outcome gives, with its version read from the answer. */
function resultOf(outcome: ProbeOutcome, version?: (body: unknown) => string | undefined): CheckResult {
  if (outcome.kind !== "answered")
    return { state: "down", reasons: outcome.reasons, roundTripMs: outcome.ms };
  return {
    state: "up",
    reasons: outcome.note ? [outcome.note] : [],
    roundTripMs: outcome.ms,
    version: version?.(outcome.answer.json),
  };
}

/** The first attempt whose answer is alive; a component that cannot be reached is down at once. */
async function firstAlive(attempts: Attempt[], timeoutMs: number): Promise<ProbeOutcome> {
  let first: ProbeOutcome | undefined;
  for (const attempt of attempts) {
    const outcome = await probe(attempt, timeoutMs);
    if (outcome.kind !== "wrongAnswer") return outcome;
    first ??= outcome;
  }
  return first!;
}

async function checkBroker(
  d: Data,
  customHeaders: Record<string, string> | undefined,
  timeoutMs: number,
): Promise<CheckResult> {
  const own = ownBrokerBearer(base(d));
  const headers = {
    ...customHeaders,
    // This process's embedded broker: with the API's credential, so that its checks are not refusals.
    ...(own ? { authorization: `Bearer ${own}` } : {}),
  };
  const outcome = await probe(
    { url: `${base(d)}/ngsi-ld/v1/types`, init: { headers }, authorizationMeansUp: true },
    timeoutMs,
  );
  const result = resultOf(outcome);
  const versions = brokerVersions[String(d.implementationName)];
  if (result.state === "up" && versions) {
    const answer = await probe({ url: `${base(d)}${versions.path}`, init: { headers } }, timeoutMs);
    if (answer.kind === "answered") result.version = versions.read(answer.answer.json);
  }
  return result;
}

/** Mintaka (Micronaut) answers its build at /info, at its root: the record's path ends with /ngsi-ld/v1. */
async function checkTemporalService(d: Data, timeoutMs: number): Promise<CheckResult> {
  if (d.temporalServiceType !== "mintaka")
    return { state: "notApplicable", reasons: [{ code: "health.byWorkspaceBroker" }] };
  const root = base(d).replace(/\/ngsi-ld\/v1$/, "");
  const outcome = await probe({ url: `${root}/info`, authorizationMeansUp: true }, timeoutMs);
  return resultOf(outcome, (b) => field(b, "project", "version") ?? field(b, "build", "version"));
}

/** Keyrock's management API refuses a sign-in without name and password with a 4xx of its own. */
const refusesEmptySignIn = (a: Answer) =>
  a.status >= 400 && a.status < 500 && ![404, 405].includes(a.status) && !a.html;

/** Keyrock tells its version at /version; an identity manager without it is up when its management API answers. */
async function checkIdentityManager(d: Data, timeoutMs: number): Promise<CheckResult> {
  const outcome = await firstAlive(
    [
      { url: `${base(d)}/version`, alive: jsonOk },
      {
        url: `${base(d)}/v1/auth/tokens`,
        init: { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
        alive: refusesEmptySignIn,
      },
    ],
    timeoutMs,
  );
  return resultOf(outcome, (b) => field(b, "keyrock", "version"));
}

/** A registry's token endpoint refuses a request without credentials: that refusal (a page, for Keyrock) shows it at work. */
const refusesEmptyToken = (a: Answer) => a.status === 400 || a.status === 401;

async function checkRegistry(d: Data, timeoutMs: number): Promise<CheckResult> {
  const root = `${String(d.scheme)}://${String(d.host)}:${String(d.port)}${String(d.path ?? "")}`.replace(
    /\/$/,
    "",
  );
  const tokenAttempt: Attempt = {
    url: `${root}${String(d.oauth2TokenPath)}`,
    init: { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" },
    alive: refusesEmptyToken,
  };
  const attempts =
    d.implementationName === "keyrock" ? [{ url: `${root}/version` }, tokenAttempt] : [tokenAttempt];
  return resultOf(await firstAlive(attempts, timeoutMs), (b) => field(b, "keyrock", "version"));
}

/** FIWARE VCVerifier answers a login page request without a state with 400 {summary: "no_state_provided"}. */
async function checkVerifier(d: Data, timeoutMs: number): Promise<CheckResult> {
  const alive = (a: Answer) =>
    (a.status === 400 || (a.status >= 200 && a.status < 300)) && a.json !== undefined;
  return resultOf(await probe({ url: `${base(d)}/api/v1/loginQR`, alive }, timeoutMs));
}

/**
 * The trusted issuers list's management API answers an issuer it does not hold with a 404 whose
 * body is empty, as the real one does (notes/fdsc.md §4; its OpenAPI document promises a problem,
 * accepted too). A 404 page (HTML) is a server without that API.
 */
async function checkIssuersList(d: Data, timeoutMs: number): Promise<CheckResult> {
  const alive = (a: Answer) =>
    (a.status === 200 && a.json !== undefined) ||
    (a.status === 404 && !a.html && (a.text.trim() === "" || a.json !== undefined));
  const probeDid = encodeURIComponent("did:web:orrery.invalid:health-check");
  return resultOf(await probe({ url: `${base(d)}/issuer/${probeDid}`, alive }, timeoutMs));
}

/** An ODRL-PAP lists its services as a bare JSON array (notes/fdsc.md §1): the first one is asked for. */
async function checkPolicyAdministrationPoint(d: Data, timeoutMs: number): Promise<CheckResult> {
  const alive = (a: Answer) => a.status === 200 && Array.isArray(a.json);
  return resultOf(await probe({ url: `${base(d)}/service?page=0&pageSize=1`, alive }, timeoutMs));
}

/**
 * A credentials configuration service, standalone or the VC verifier's own, lists its services as
 * `{total, pageNumber, pageSize, services: [...]}` (notes/fdsc.md §3): the first one is asked for.
 */
async function checkCredentialsConfigService(d: Data, timeoutMs: number): Promise<CheckResult> {
  const alive = (a: Answer) =>
    a.status === 200 && Array.isArray((a.json as { services?: unknown } | undefined)?.services);
  return resultOf(await probe({ url: `${base(d)}/service?pageSize=1&page=0`, alive }, timeoutMs));
}

/** What a token endpoint's answer says of the grant: a token (never kept nor shown), or the refusal's reason. */
function tokenResult(outcome: ProbeOutcome, tokenOf: (a: Answer) => unknown): CheckResult {
  if (outcome.kind !== "answered") return resultOf(outcome);
  const { answer, ms } = outcome;
  if (answer.status >= 200 && answer.status < 300) {
    return typeof tokenOf(answer) === "string"
      ? { state: "up", reasons: [{ code: "health.tokenObtained" }], roundTripMs: ms }
      : { state: "down", reasons: [{ code: "health.tokenMissing" }], roundTripMs: ms };
  }
  return {
    state: "down",
    reasons: [
      {
        code: "health.tokenRefused",
        params: { status: answer.status, reason: reasonOf(answer.json ?? answer.text) },
      },
    ],
    roundTripMs: ms,
  };
}

/**
 * An identity manager grant asks for a token as the broker calls do (Keyrock: Basic client
 * authentication, form body). A password grant also serves Keyrock's management API (the users of
 * a workspace): an identity manager without an OAuth 2.0 token endpoint is asked there.
 */
async function checkIdentityManagerGrant(
  records: Records,
  grant: Row,
  timeoutMs: number,
): Promise<CheckResult> {
  const idmId = String(grant.data.hasIdentityManager ?? "");
  const idm = await records.find(identityManagers, idmId);
  if (!idm) throw notFound(idmId);
  await requireOwnGrant(records, grant, idm);
  const d = grant.data;
  const secret = (await records.secret(identityManagerGrants, grant.id, "clientSecret")) ?? "";
  const password =
    d.grantType === "password"
      ? ((await records.secret(identityManagerGrants, grant.id, "password")) ?? "")
      : "";
  const form = new URLSearchParams({ grant_type: String(d.grantType) });
  if (d.grantType === "password") {
    form.set("username", String(d.username));
    form.set("password", password);
  }
  const idmBase = base(idm.data);
  const outcome = await probe(
    {
      url: `${idmBase}${String(idm.data.oauth2TokenPath)}`,
      init: {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${String(d.clientId)}:${secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: form,
      },
      alive: anyAnswer,
    },
    timeoutMs,
  );
  if (d.grantType !== "password" || outcome.kind !== "answered" || outcome.answer.status !== 404)
    return tokenResult(outcome, (a) => (a.json as Data | undefined)?.access_token);
  const management = `${idmBase}/v1/auth/tokens`;
  const signIn = await probe(
    {
      url: management,
      init: {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: String(d.username), password }),
      },
      alive: anyAnswer,
    },
    timeoutMs,
  );
  // Keyrock gives the management token in a header: the check only needs to know there is one, and
  // gives it back at once (Keyrock keeps every management token until it expires otherwise).
  const token = signIn.kind === "answered" ? signIn.answer.headers.get("x-subject-token") : null;
  if (token)
    await fetchWithin(
      management,
      { method: "DELETE", headers: { "x-auth-token": token, "x-subject-token": token } },
      timeoutMs,
      Infinity,
      "health-check",
    ).catch(() => undefined);
  return tokenResult(signIn, () => token ?? undefined);
}

/** An authorization registry grant signs an iSHARE client assertion and asks the registry's token endpoint. */
async function checkRegistryGrant(records: Records, grant: Row, timeoutMs: number): Promise<CheckResult> {
  const { registry, grant: credentials } = await registryAndGrant(
    records,
    String(grant.data.hasAuthorizationRegistry ?? ""),
    grant.id,
  );
  let assertion: string;
  try {
    assertion = await clientAssertion(credentials, registry.identifier);
  } catch {
    return { state: "down", reasons: [{ code: "health.keyCannotSign" }] };
  }
  const root = `${registry.scheme}://${registry.host}:${registry.port}${registry.path ?? ""}`.replace(
    /\/$/,
    "",
  );
  const outcome = await probe(
    {
      url: `${root}${registry.oauth2TokenPath}`,
      init: {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          scope: "iSHARE",
          client_id: credentials.identifier,
          client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          client_assertion: assertion,
        }),
      },
      alive: anyAnswer,
    },
    timeoutMs,
  );
  return tokenResult(outcome, (a) => (a.json as Data | undefined)?.access_token);
}

/**
 * Checks a component now. A record that cannot be checked as it stands (a grant of another
 * identity manager) is down with the API's own catalogued reason.
 */
export async function checkComponent(
  records: Records,
  kind: KindDefinition,
  row: Row,
  timeoutMs: number,
): Promise<CheckResult> {
  try {
    switch (kind.kind) {
      case contextBrokers.kind:
        return await checkBroker(row.data, records.secretValues(row, "customHeaders"), timeoutMs);
      case temporalServices.kind:
        return await checkTemporalService(row.data, timeoutMs);
      case identityManagers.kind:
        return await checkIdentityManager(row.data, timeoutMs);
      case identityManagerGrants.kind:
        return await checkIdentityManagerGrant(records, row, timeoutMs);
      case authorizationRegistries.kind:
        return await checkRegistry(row.data, timeoutMs);
      case authorizationRegistryGrants.kind:
        return await checkRegistryGrant(records, row, timeoutMs);
      case vcVerifiers.kind:
        return await checkVerifier(row.data, timeoutMs);
      case policyAdministrationPoints.kind:
        return await checkPolicyAdministrationPoint(row.data, timeoutMs);
      case credentialsConfigServices.kind:
        return await checkCredentialsConfigService(row.data, timeoutMs);
      default:
        return await checkIssuersList(row.data, timeoutMs);
    }
  } catch (err) {
    const detail = err instanceof Problem ? err.said?.detail : undefined;
    if (!detail) throw err;
    return { state: "down", reasons: [detail] };
  }
}
