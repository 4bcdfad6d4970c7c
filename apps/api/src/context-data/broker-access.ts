import {
  contextBrokers,
  identityManagerGrants,
  identityManagers,
  services,
  temporalServices,
} from "@orrery/model";
import { NgsiLdClient, NgsiLdError, type Failure } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { CrossOriginRedirect, fetchWithin, PEER_TIMEOUT_MS, unreachableCause } from "../peers.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { requireOwnGrant } from "../trust/grant-peer.ts";
import { isOwnBroker, ownBrokerBearer } from "../pep/internal.ts";

type Row = NonNullable<Awaited<ReturnType<Records["find"]>>>;

/** scheme://host:port[path] of a connection record (broker, identity manager, Mintaka). */
export const address = (d: Record<string, unknown>) =>
  `${String(d.scheme)}://${String(d.host)}:${String(d.port)}${String(d.path ?? "")}`;

/** The workspace's published @context, or none before the first generation. */
export function workspaceContextUrl(config: Config, workspace: Row, typeName?: string): string | undefined {
  const version = Number(workspace.data.dataModelVersion ?? 0);
  if (version < 1) return undefined;
  return `${config.dataModelsUrl}/${String(workspace.data.dataModelName)}/${version}/${typeName ? `${typeName}/` : ""}context.jsonld`;
}

/** Tokens by grant (and grant version, so an edited grant gets a new token), kept until shortly before expiry. */
const tokens = new Map<string, { token: string; expiresAt: number }>();

/**
 * Refusals by grant (and versions, as tokens): a grant the identity manager refused is not tried
 * again for REFUSAL_MS, so that broker calls in a row do not sign in with a wrong stored password
 * each time (an identity manager that locks accounts after failed sign-ins would lock it).
 */
const refusals = new Map<string, { status: number; until: number }>();
const REFUSAL_MS = 30_000;

/** An OAuth 2.0 token from an identity manager grant (Keyrock contract: Basic client auth, form body), cached until expiry. */
async function oauth2Token(records: Records, idmId: unknown, grantId: unknown): Promise<string> {
  const idm = await records.find(identityManagers, String(idmId));
  const grantRow = await records.find(identityManagerGrants, String(grantId));
  if (!idm || !grantRow) throw problem(409, "workspace.incompleteService");
  await requireOwnGrant(records, grantRow, idm);
  const key = `${grantRow.id}@${grantRow.version}@${idm.id}@${idm.version}`;
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.token;
  const name = String(idm.data.name);
  const refused = refusals.get(key);
  if (refused && refused.until > Date.now())
    throw problem(502, "idm.refusedGrant", { name, status: refused.status });
  refusals.delete(key);
  const grant = grantRow.data;
  const secret = (await records.secret(identityManagerGrants, grantRow.id, "clientSecret")) ?? "";
  const form = new URLSearchParams({ grant_type: String(grant.grantType) });
  if (grant.grantType === "password") {
    form.set("username", String(grant.username));
    form.set("password", (await records.secret(identityManagerGrants, grantRow.id, "password")) ?? "");
  }
  let response: Response;
  try {
    response = await fetchWithin(
      `${address(idm.data)}${String(idm.data.oauth2TokenPath)}`,
      {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${String(grant.clientId)}:${secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: form,
      },
      PEER_TIMEOUT_MS,
      Infinity,
      identityManagers.kind,
    );
  } catch (err) {
    if (err instanceof CrossOriginRedirect)
      throw problem(502, "peer.crossOriginRedirect", {
        name,
        kind: identityManagers.kind,
        location: err.location,
      });
    throw problem(502, "idm.unreachable", { name, cause: unreachableCause(err) });
  }
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
  if (!response.ok || !body.access_token) {
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      for (const [k, r] of refusals) if (r.until <= Date.now()) refusals.delete(k);
      refusals.set(key, { status: response.status, until: Date.now() + REFUSAL_MS });
    }
    throw problem(502, "idm.refusedGrant", { name, status: response.status });
  }
  // Renew 30 s early; a token without expires_in is kept for 5 minutes.
  const lifetime = Math.max(0, (Number(body.expires_in) || 300) - 30) * 1000;
  tokens.set(key, { token: body.access_token, expiresAt: Date.now() + lifetime });
  return body.access_token;
}

/** The workspace's service, its context broker, and the tenant when the broker is multi-tenant. */
async function connection(records: Records, workspace: Row) {
  const service = await records.find(services, String(workspace.data.hasService));
  const broker = service && (await records.find(contextBrokers, String(service.data.hasContextBroker)));
  if (!service || !broker) throw problem(409, "workspace.incomplete");
  const tenant =
    broker.data.multiTenancyEnabled === true
      ? (workspace.data.contextBrokerTenant as string | undefined)
      : undefined;
  return { service, broker, tenant };
}

/**
 * The tenant ("" for the default one) when the workspace's broker is this process's embedded
 * broker, which the API may then read in-process (EntityReader); undefined for any other broker.
 */
export async function ownBrokerTenant(records: Records, workspace: Row): Promise<string | undefined> {
  const { broker, tenant } = await connection(records, workspace);
  return isOwnBroker(address(broker.data)) ? (tenant ?? "") : undefined;
}

export interface BrokerCallOptions {
  /** The workspace's @context URL (workspaceContextUrl). */
  context?: string;
  /** The console's `Gateway-Authorization` header (the workspace's SIOP 2 token), forwarded on entity calls. */
  gatewayAuthorization?: string;
}

/**
 * The NGSI-LD client for a workspace's broker: its address, profile, custom headers, the tenant
 * when the broker is multi-tenant, the workspace's @context, the service's OAuth 2.0 token and,
 * when the console holds one, the SIOP 2 token as `Gateway-Authorization`.
 */
export async function workspaceBroker(
  records: Records,
  workspace: Row,
  contextOrOptions: string | undefined | BrokerCallOptions,
): Promise<NgsiLdClient> {
  const options: BrokerCallOptions =
    typeof contextOrOptions === "object" ? contextOrOptions : { context: contextOrOptions };
  const { service, broker, tenant } = await connection(records, workspace);
  let bearer: string | undefined;
  if (service.data.authorizationRequired === true) {
    if (service.data.authorizationMode === "oauth2") {
      bearer = await oauth2Token(
        records,
        service.data.hasIdentityManager,
        service.data.hasIdentityManagerGrant,
      );
    } else if (!options.gatewayAuthorization) {
      throw problem(409, "workspace.siop2Login");
    }
  }
  return new NgsiLdClient({
    baseUrl: address(broker.data),
    implementationName: String(broker.data.implementationName),
    label: String(broker.data.name),
    tenant,
    customHeaders: records.secretValues(broker, "customHeaders"),
    context: options.context,
    // The embedded broker of this process is reached with the API's own credential (src/pep).
    bearer: ownBrokerBearer(address(broker.data)) ?? bearer,
    pageSize: Number(broker.data.paginationMaxLimit) || undefined,
    ...(options.gatewayAuthorization
      ? { extraHeaders: { "Gateway-Authorization": options.gatewayAuthorization } }
      : {}),
  });
}

/**
 * The client for a temporal service of the workspace: the broker's own temporal API (type ngsi-ld)
 * or a Mintaka (its own address, tenant, and its own identity manager grant; no broker custom headers).
 */
export async function temporalBroker(
  records: Records,
  workspace: Row,
  temporalServiceId: string,
  context: string | undefined,
): Promise<NgsiLdClient> {
  const listed = (workspace.data.temporalServices as string[] | undefined) ?? [];
  const temporal = listed.includes(temporalServiceId)
    ? await records.find(temporalServices, temporalServiceId)
    : undefined;
  if (!temporal) throw problem(404, "notFound.temporalService", { id: temporalServiceId });
  if (temporal.data.temporalServiceType !== "mintaka")
    return workspaceBroker(records, workspace, { context });
  const { broker, tenant } = await connection(records, workspace);
  const d = temporal.data;
  return new NgsiLdClient({
    baseUrl: address(d),
    implementationName: String(broker.data.implementationName),
    label: String(d.name),
    tenant,
    context,
    temporalBaseUrl: address(d),
    temporalBearer:
      d.authorizationRequired === true
        ? await oauth2Token(records, d.hasIdentityManager, d.hasIdentityManagerGrant)
        : undefined,
  });
}

/** What the broker sent instead of what was due, and what was due, as catalogued words. */
const unusable = (failure: Extract<Failure, { kind: "unusable" }>) => ({
  found: { code: `broker.found.${failure.found}` as const },
  expected: { code: `broker.expected.${failure.expected}` as const },
});

/**
 * A broker's failure as an API problem: the user's own mistakes keep their status (400 bad data,
 * 404 unknown entity, 409 already exists); a broker that cannot be reached, answers too late or
 * answers something unusable (an HTML page, an empty body where an entity was due) is 502 or 504,
 * naming the broker. The broker's problem details travel along.
 */
export function brokerProblem(err: unknown): unknown {
  if (!(err instanceof NgsiLdError)) return err;
  const extra = { brokerStatus: err.status, brokerProblem: err.problem };
  const broker = err.broker;
  const reason = [err.problem.title, err.problem.detail].filter(Boolean).join(": ");
  const failure = err.failure;
  switch (failure?.kind) {
    case "timeout":
      return problem(504, "broker.timeout", { broker }, extra);
    case "unreachable":
      return problem(502, "broker.unreachable", { broker, cause: failure.cause }, extra);
    case "unusable":
      return problem(
        502,
        "broker.unusable",
        { broker, answered: failure.answered, ...unusable(failure) },
        extra,
      );
    case "unwritable":
      return problem(400, "broker.unwritable", { cause: failure.cause }, extra);
  }
  if (err.status === 404) return problem(404, "broker.notFound", { broker, reason }, extra);
  if (err.status === 400 || err.status === 409 || err.status === 422 || err.status === 207)
    return problem(err.status === 207 ? 400 : err.status, "broker.refused", { broker, reason }, extra);
  return problem(502, "broker.failed", { broker, reason }, extra);
}

/**
 * A list read that finds nothing: a tenant the broker has never written to answers 404
 * (NonexistentTenant in the embedded broker and Orion-LD), which for a list means "empty".
 */
export async function listOrEmpty<T>(run: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof NgsiLdError && err.status === 404) return empty;
    throw err;
  }
}

/** Runs a broker call and answers its failure as a problem. */
export async function viaBroker<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw brokerProblem(err);
  }
}
