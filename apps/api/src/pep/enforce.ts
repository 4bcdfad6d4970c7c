import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from "fastify";
import { isAllowed } from "@orrery/model";
import { asSegment, servedPath } from "../auth/guard.ts";
import { sessionTokenShape, type Session, type Sessions } from "../auth/sessions.ts";
import { languageOf, say, type MessageCode } from "../messages/say.ts";
import type { Item } from "../resources/records.ts";
import type { BrokerClientGrant, BrokerClientKeys } from "./broker-clients.ts";
import type { Decision, DecisionLog, DecisionReason } from "./decisions.ts";
import { credentialOf } from "./credentials.ts";
import { endpointsOf, privateEndpoint } from "./endpoints.ts";
import { matchesInternal } from "./internal.ts";
import type { TenantWorkspaces } from "./tenants.ts";
import type { ConsumerJudge } from "./consumers.ts";
import type { WorkspaceTypes } from "./type-names.ts";

export const BROKER_PREFIX = "/ngsi-ld/v1";

/** Who a request is from, once its credential is read. */
type Holder =
  | { kind: "internal" }
  | { kind: "user"; session: Session; admin: boolean; reason: DecisionReason }
  | { kind: "client"; client: BrokerClientGrant }
  | { kind: "consumer"; token: string; workspaces: Item[] };

declare module "fastify" {
  interface FastifyRequest {
    /** The holder of the credential of a request to the embedded broker (src/pep). */
    brokerHolder?: Holder;
  }
}

export interface PepOptions {
  sessions: Sessions;
  tenants: TenantWorkspaces;
  decisions: DecisionLog;
  internalToken: string;
  clients?: BrokerClientKeys;
  /** Data-space consumers: judged by the workspace's authorization registry or its ODRL policies. */
  consumers?: { judge: ConsumerJudge; types: WorkspaceTypes };
}

const isBrokerRoute = (route: string | undefined): route is string =>
  route !== undefined && route.startsWith(`${BROKER_PREFIX}/`);

/** NGSI-LD operations that read though they are POSTs (a query with its body). */
const readingPosts = new Set([
  `${BROKER_PREFIX}/entityOperations/query`,
  `${BROKER_PREFIX}/temporal/entityOperations/query`,
]);
const readsOnly = (method: string, route: string) =>
  method === "GET" || method === "HEAD" || (method === "POST" && readingPosts.has(route));

/** Who may administer the platform reaches every tenant: the one who may create broker clients. */
export const isAdministrator = (session: Session) =>
  isAllowed(session.permissions, "POST", "/api/broker-clients");

/** The tenant a request addresses, as the broker reads it: its NGSILD-Tenant header, "" for the default. */
function tenantOf(request: FastifyRequest): string {
  const raw = request.headers["ngsild-tenant"];
  return (Array.isArray(raw) ? raw[0] : raw) ?? "";
}

/** The entity type and id a request names, for the log (a GET of one entity names no type). */
function targetOf(request: FastifyRequest): { entityType?: string; entityId?: string } {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body as unknown;
  const items = Array.isArray(body) ? body : body && typeof body === "object" ? [body] : [];
  const typeOfItem = (item: unknown) =>
    item && typeof item === "object" && typeof (item as { type?: unknown }).type === "string"
      ? (item as { type: string }).type
      : undefined;
  const types = [
    ...new Set([typeof query.type === "string" ? query.type : undefined, ...items.map(typeOfItem)]),
  ].filter(Boolean);
  return { entityType: types.join(",") || undefined, entityId: params.entityId };
}

/**
 * The embedded broker's policy enforcement point. Every request under /ngsi-ld/v1 carries a
 * credential, read before anything else (onRequest): without one, 401. With one, its holder is
 * decided on the tenant it addresses and on what the request does (read or write), on the route
 * the router matched, never on the raw target: the API's own credential passes; a console user passes
 * where a workspace they may read (or write) uses the tenant, an administrator everywhere; a broker
 * client within its tenants and access. A subscription or registration that would make the server
 * call a private address needs an administrator (preHandler, once the body is read). Every decision
 * but the API's own calls goes to the decision log.
 */
export function registerPep(app: FastifyInstance, options: PepOptions): void {
  const { sessions, tenants, decisions, internalToken, clients, consumers } = options;

  const decided = (request: FastifyRequest, decision: Omit<Decision, "method" | "tenant" | "path">) => {
    decisions.record(
      {
        ...targetOf(request),
        ...decision,
        method: request.method,
        tenant: tenantOf(request),
        path: (servedPath(request) ?? request.url.split("?")[0]!).slice(BROKER_PREFIX.length),
      },
      request.routeOptions.url!.slice(BROKER_PREFIX.length),
    );
  };

  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: 401 | 403 | 503,
    reason: DecisionReason,
    params: Record<string, string> = {},
  ) => {
    const language = languageOf(request.headers["accept-language"]);
    const code = `pep.${reason}` as MessageCode;
    if (status === 401)
      reply.header(
        "www-authenticate",
        reason === "noToken" ? 'Bearer realm="ngsi-ld"' : 'Bearer realm="ngsi-ld", error="invalid_token"',
      );
    return reply
      .code(status)
      .type("application/json")
      .send({
        type: "about:blank",
        title: say(language, `title.${status}`),
        status,
        detail: say(language, code, params),
        code,
        reason,
      });
  };

  const userDecision = async (
    session: Session,
    tenant: string,
    write: boolean,
  ): Promise<{ permit: boolean; reason: DecisionReason }> => {
    if (isAdministrator(session)) return { permit: true, reason: "admin" };
    const workspaces = await tenants.of(tenant);
    if (workspaces.length === 0) return { permit: false, reason: "noWorkspace" };
    const may = (method: string) =>
      workspaces.some((w) =>
        isAllowed(session.permissions, method, `/api/workspace/${asSegment(w.id)}/entities`),
      );
    if (write ? may("POST") : may("GET")) return { permit: true, reason: "permit" };
    return { permit: false, reason: write && may("GET") ? "readOnly" : "forbidden" };
  };

  const identify: onRequestAsyncHookHandler = async (request, reply) => {
    const route = request.routeOptions.url!;
    const credential = credentialOf(request.headers);
    if (!credential.token) {
      const reason = credential.malformed ? "badCredential" : "noToken";
      decided(request, { holder: "", holderKind: "anonymous", permit: false, reason });
      return refuse(request, reply, 401, reason);
    }
    const token = credential.token;
    if (matchesInternal(token, internalToken)) {
      request.brokerHolder = { kind: "internal" };
      return;
    }
    const tenant = tenantOf(request);
    const write = !readsOnly(request.method, route);
    const params = {
      tenant: tenant || say(languageOf(request.headers["accept-language"]), "pep.defaultTenant"),
    };

    // Each kind of credential has its shape: a session token is 43 base64url characters, a broker
    // client's key 47 from its prefix on; asking the database only for the shape that can match
    // keeps an unknown token (a consumer's, every time) from costing a query of each store.
    const session = sessionTokenShape.test(token) ? await sessions.find(token) : undefined;
    if (session) {
      const { permit, reason } = await userDecision(session, tenant, write);
      if (!permit) {
        decided(request, { holder: session.username, holderKind: "user", permit, reason });
        return refuse(request, reply, 403, reason, params);
      }
      request.brokerHolder = { kind: "user", session, admin: reason === "admin", reason };
      return;
    }

    const client = await clients?.find(token);
    if (client) {
      const reason: DecisionReason = !client.tenants.includes(tenant)
        ? "clientScope"
        : write && client.access !== "write"
          ? "clientReadOnly"
          : "permit";
      if (reason !== "permit") {
        decided(request, { ...asClient(client), permit: false, reason });
        return refuse(request, reply, 403, reason, params);
      }
      request.brokerHolder = { kind: "client", client };
      return;
    }

    // Any other token may be a data-space consumer's, when workspaces use this tenant: judged once
    // the body is read (its entity types are part of the required policies).
    const workspaces = consumers ? await tenants.of(tenant) : [];
    if (workspaces.length) {
      request.brokerHolder = { kind: "consumer", token, workspaces };
      return;
    }
    decided(request, { holder: "", holderKind: "anonymous", permit: false, reason: "unknownToken" });
    return refuse(request, reply, 401, "unknownToken");
  };

  /** A consumer's request judged by its workspaces' trust layer; undefined when none knows the token. */
  const judged = async (request: FastifyRequest, token: string, workspaces: Item[]) => {
    const { judge, types } = consumers!;
    const tenant = tenantOf(request);
    const route = request.routeOptions.url!;
    return judge.judge(
      token,
      {
        method: request.method === "HEAD" ? "GET" : request.method,
        path: (servedPath(request) ?? route).slice(BROKER_PREFIX.length),
        routePattern: route.slice(BROKER_PREFIX.length),
        params: (request.params ?? {}) as Record<string, string>,
        query: (request.query ?? {}) as Record<string, unknown>,
        body: request.body,
      },
      workspaces,
      (id) =>
        types.ofEntity(
          tenant,
          id,
          workspaces.map((w) => w.id),
        ),
      (term, workspaceId) =>
        types.nameOfTerm(
          workspaceId,
          String(workspaces.find((w) => w.id === workspaceId)?.dataModelName ?? ""),
          term,
          { link: request.headers.link, body: request.body },
        ),
    );
  };

  // Once the body is read: a notification or a federated query goes where a subscription or a
  // registration says, to a private address only when an administrator (or the API itself) wrote it.
  // Then the permit is logged, with the entity type the body names.
  const authorize: preHandlerAsyncHookHandler = async (request, reply) => {
    const holder = request.brokerHolder;
    if (!holder || holder.kind === "internal") return;
    let who: Omit<Decision, "method" | "tenant" | "path" | "permit" | "reason">;
    if (holder.kind === "consumer") {
      const verdict = await judged(request, holder.token, holder.workspaces);
      if (!verdict) {
        decided(request, { holder: "", holderKind: "anonymous", permit: false, reason: "unknownToken" });
        return refuse(request, reply, 401, "unknownToken");
      }
      who = {
        holder: verdict.holder,
        holderKind: verdict.holderKind,
        party: verdict.party,
        roles: verdict.roles,
        detail: [verdict.detail, ...verdict.asked].join(" "),
      };
      if (!verdict.permit) {
        decided(request, { ...who, permit: false, reason: verdict.reason });
        return refuse(request, reply, verdict.status ?? 403, verdict.reason);
      }
    } else who = holder.kind === "user" ? asUser(holder.session) : asClient(holder.client);
    if (!(holder.kind === "user" && holder.admin) && !readsOnly(request.method, request.routeOptions.url!)) {
      const route = request.routeOptions.url!.slice(BROKER_PREFIX.length);
      const found = await privateEndpoint(endpointsOf(route, request.body));
      if (found) {
        decided(request, { ...who, permit: false, reason: "privateEndpoint", detail: found });
        return refuse(request, reply, 403, "privateEndpoint", { endpoint: found });
      }
    }
    decided(request, { ...who, permit: true, reason: holder.kind === "user" ? holder.reason : "permit" });
  };

  // Only the broker's routes carry these hooks: the rest of the process pays nothing for them.
  app.addHook("onRoute", (route) => {
    if (!isBrokerRoute(route.url)) return;
    route.onRequest = [identify, ...[route.onRequest ?? []].flat()] as onRequestAsyncHookHandler[];
    route.preHandler = [...[route.preHandler ?? []].flat(), authorize] as preHandlerAsyncHookHandler[];
  });
}

const asUser = (session: Session) => ({ holder: session.username, holderKind: "user" as const });
const asClient = (client: BrokerClientGrant) => ({
  holder: client.name,
  holderKind: "client" as const,
  clientId: client.id,
});
