import type { FastifyInstance, FastifyRequest, onSendHookHandler } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { and, desc, eq, gte, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Config } from "../config.ts";
import { logPageFields } from "../log-page.ts";
import { problemSchema } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { auditEvents, keptCreates } from "../storage/schema.ts";
import { auditActions, kindsByName } from "@orrery/model";
import { RefusalLog } from "./refusals.ts";
import { changesListed, writeAudit, type Actor, type AuditEvent } from "./trail.ts";

type Params = Record<string, string | undefined>;
interface Answered {
  params: Params;
  body: unknown;
  query: Params;
  status: number;
  /** The JSON answer, when the route sent one. */
  answer: Record<string, unknown> | undefined;
}

const ok = (status: number) => status < 300;
const entity = (at: Answered, action: AuditEvent["action"], detail?: Record<string, unknown>): AuditEvent => {
  const id = at.params.entityId ?? String(at.answer?.id ?? "");
  return { action, kind: "entities", recordId: id, title: id, workspaceId: at.params.workspaceId, detail };
};
/** The attributes a body writes (an entity's own keys are not attributes). */
const attributes = (body: unknown) =>
  body && typeof body === "object" && !Array.isArray(body)
    ? Object.keys(body).filter((k) => !["id", "type", "@context", "scope"].includes(k))
    : [];
/** What a peer said when a synchronisation failed: its problem's title and detail. */
const failure = (at: Answered) =>
  ok(at.status)
    ? undefined
    : { status: at.status, title: at.answer?.title, detail: at.answer?.detail, details: at.answer?.details };
const synchronized =
  (kind: string) =>
  (at: Answered): AuditEvent => ({
    action: "synchronize",
    kind,
    recordId: at.params.id,
    title: typeof at.answer?.name === "string" ? at.answer.name : at.params.id,
    workspaceId: at.params.workspaceId,
    outcome: ok(at.status) ? "success" : "failure",
    detail: failure(at) ?? null,
  });

/** A write to a peer of the data space, named by what the peer calls it, in the record it belongs to. */
const peerWrite = (
  at: Answered,
  action: "create" | "update" | "delete",
  kind: string,
  id: string | undefined,
): AuditEvent => ({
  action,
  kind,
  recordId: id ?? "",
  title: id ?? "",
  workspaceId: at.params.workspaceId,
  detail: at.params.workspaceId ? null : { of: at.params.id },
});

const ws = "/api/workspace/:workspaceId";
const history = `${ws}/temporal-entities/:entityId/properties/:propertyId/instances`;
const rejectedCount = (at: Answered) =>
  Array.isArray(at.answer?.rejected) ? at.answer.rejected.length : undefined;
/** A write to an attribute's history: the entity, the property and the instance it names. */
const historyWrite = (at: Answered, action: AuditEvent["action"], more: Record<string, unknown> = {}) =>
  entity(at, action, {
    propertyId: at.params.propertyId,
    ...(at.params.instanceId ? { instanceId: at.params.instanceId } : {}),
    ...more,
  });
/**
 * Changes that do not pass through the record layer (writes to the workspace's broker, to its
 * identity manager and authorization registry), by the route the router matched: recorded once the
 * peer has answered. A synchronisation is recorded whatever its outcome; the others when they succeeded.
 */
const routeEvents: Record<string, (at: Answered) => AuditEvent | undefined> = {
  [`POST ${ws}/entities`]: (at) => entity(at, "entity.create", { attributes: attributes(at.body) }),
  [`PUT ${ws}/entities/:entityId`]: (at) => entity(at, "entity.update", { attributes: attributes(at.body) }),
  [`DELETE ${ws}/entities/:entityId`]: (at) => entity(at, "entity.delete"),
  [`POST ${ws}/entities/:entityId/attrs`]: (at) =>
    entity(at, "attribute.update", { attributes: attributes(at.body) }),
  [`PUT ${ws}/entities/:entityId/attrs/:attrName`]: (at) =>
    entity(at, "attribute.update", { attributes: [at.params.attrName] }),
  [`DELETE ${ws}/entities/:entityId/attrs/:attrName`]: (at) =>
    entity(at, "attribute.delete", { attributes: [at.params.attrName] }),
  [`POST ${ws}/entities/import`]: (at) =>
    at.query.dryRun === "true"
      ? undefined
      : {
          action: "import",
          kind: "entities",
          workspaceId: at.params.workspaceId,
          detail: {
            typeId: at.query.typeId,
            ...(at.answer
              ? { total: at.answer.total, created: at.answer.created, updated: at.answer.updated }
              : {}),
          },
        },
  // An attribute's history (the temporal API of the workspace's broker): what was written where.
  [`POST ${history}`]: (at) => historyWrite(at, "history.add"),
  [`PATCH ${history}/:instanceId`]: (at) => historyWrite(at, "history.update"),
  [`DELETE ${history}/:instanceId`]: (at) => historyWrite(at, "history.delete"),
  [`POST ${history}/import`]: (at) =>
    at.query.dryRun === "true"
      ? undefined
      : historyWrite(
          at,
          "history.import",
          at.answer
            ? { total: at.answer.total, created: at.answer.created, rejected: rejectedCount(at) }
            : {},
        ),
  [`POST ${ws}/subscriptions`]: (at) => peerWrite(at, "create", "subscriptions", String(at.answer?.id ?? "")),
  [`PUT ${ws}/subscriptions/:subscriptionId`]: (at) =>
    peerWrite(at, "update", "subscriptions", at.params.subscriptionId),
  [`DELETE ${ws}/subscriptions/:subscriptionId`]: (at) =>
    peerWrite(at, "delete", "subscriptions", at.params.subscriptionId),
  // A context source registration lives in a broker, not in a workspace: recorded with its broker.
  "POST /api/context-brokers/:id/registrations": (at) =>
    peerWrite(at, "create", "registrations", String(at.answer?.id ?? "")),
  "DELETE /api/context-brokers/:id/registrations/:registrationId": (at) =>
    peerWrite(at, "delete", "registrations", at.params.registrationId),
  [`POST ${ws}/wot-actions/:id/execute`]: (at) => ({
    action: "wot.execute",
    kind: "wot-actions",
    recordId: at.params.id,
    title: at.params.id,
    workspaceId: at.params.workspaceId,
    detail: { entityId: at.query.entityId, inputs: attributes(at.body) },
  }),
  [`POST ${ws}/users/:userId/roles/:roleName`]: (at) => ({
    action: "role.assign",
    kind: "users",
    recordId: at.params.userId,
    title: at.params.roleName,
    workspaceId: at.params.workspaceId,
    detail: { role: at.params.roleName },
  }),
  [`DELETE ${ws}/users/:userId/roles/:roleName`]: (at) => ({
    action: "role.remove",
    kind: "users",
    recordId: at.params.userId,
    title: at.params.roleName,
    workspaceId: at.params.workspaceId,
    detail: { role: at.params.roleName },
  }),
  [`POST ${ws}/data-model/generate`]: (at) => ({
    action: "dataModel.generate",
    kind: "workspaces",
    recordId: at.params.workspaceId,
    workspaceId: at.params.workspaceId,
    detail: at.answer ? { dataModelVersion: at.answer.dataModelVersion } : null,
  }),
  [`POST ${ws}/roles/:id/synchronize`]: synchronized("roles"),
  [`POST ${ws}/contracts/:id/synchronize`]: synchronized("contracts"),
  [`POST ${ws}/contract-details/:id/synchronize`]: synchronized("contract-details"),
  "POST /api/auth/logout": () => ({ action: "signOut" }),
  // The data space connector's peers (ODRL policy administration point, trusted issuers list,
  // credentials configuration service): what they hold is written there, not in a record.
  [`POST ${ws}/odrl-policies`]: (at) => peerWrite(at, "create", "odrl-policies", String(at.answer?.id ?? "")),
  [`PUT ${ws}/odrl-policies/:id`]: (at) => peerWrite(at, "update", "odrl-policies", at.params.id),
  [`DELETE ${ws}/odrl-policies/:id`]: (at) => peerWrite(at, "delete", "odrl-policies", at.params.id),
  "POST /api/trusted-issuers-lists/:id/issuers": (at) =>
    peerWrite(
      at,
      "create",
      "trusted-issuers",
      String(at.answer?.did ?? (at.body as Params | undefined)?.did ?? ""),
    ),
  "PUT /api/trusted-issuers-lists/:id/issuers/:did": (at) =>
    peerWrite(at, "update", "trusted-issuers", at.params.did),
  "DELETE /api/trusted-issuers-lists/:id/issuers/:did": (at) =>
    peerWrite(at, "delete", "trusted-issuers", at.params.did),
  // A policy (a delegation evidence) written at an iSHARE authorization registry: the proxy answers
  // the registry's status in its body, so a refusal there is recorded as a failure.
  "POST /api/proxies/authorization-registry/create-policy": (at) => {
    // The registry's own status: in the answer's body, or in the problem of a refusal (registryStatus).
    const answered = at.answer?.registryStatus ?? at.answer?.status;
    const status = typeof answered === "number" ? answered : at.status;
    const target = ((at.body as Record<string, any> | undefined)?.delegationEvidence?.target ?? {}) as Params;
    return {
      action: "create",
      kind: "delegation-policies",
      recordId: at.query.authorizationRegistryId ?? "",
      title: String(target.accessSubject ?? ""),
      outcome: ok(status) ? "success" : "failure",
      detail: { grant: at.query.authorizationRegistryGrantId, status, accessSubject: target.accessSubject },
    };
  },
  // The sheet's cells, replaced: which sheet and how many rows, not the cells.
  "POST /api/proxies/google-sheets/write-sheet": (at) => ({
    action: "sheet.write",
    kind: "google-sheets",
    recordId: at.query.spreadsheetId ?? "",
    title: at.query.sheetName ?? "",
    detail: { rows: Array.isArray(at.body) ? at.body.length : 0 },
  }),
  "PUT /api/services/:id/credential-configuration": (at) =>
    peerWrite(at, "update", "credential-configuration", at.params.id),
  "DELETE /api/services/:id/credential-configuration": (at) =>
    peerWrite(at, "delete", "credential-configuration", at.params.id),
};
/** The routes (`METHOD /api/...`) whose writes this plugin records; the record layer records the others. */
export const routesWithEvents: ReadonlySet<string> = new Set(Object.keys(routeEvents));
/** Routes whose failures are recorded too. */
const recordsFailures = (key: string) =>
  key.endsWith("/synchronize") || key === "POST /api/proxies/authorization-registry/create-policy";

/** The kind a path names: /api/{kind}/... or /api/workspace/{id}/{kind}/... */
function kindOf(url: string): string {
  const parts = url.split("/").filter(Boolean);
  return (parts[1] === "workspace" ? parts[3] : parts[1]) ?? "";
}

const actorOf = (request: FastifyRequest): Actor | undefined => request.session;

const writes = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const query = z
  .object({
    user: z.string().max(500).optional(),
    kind: z.string().max(200).optional(),
    record: z.string().max(2_000).optional(),
    workspace: z.string().max(2_000).optional(),
    action: z.enum(auditActions).optional(),
    ...logPageFields,
  })
  .strict();

const eventSchema = z.object({
  id: z.string(),
  at: z.string(),
  subject: z.string(),
  username: z.string(),
  provider: z.string(),
  action: z.string(),
  kind: z.string(),
  recordId: z.string(),
  title: z.string(),
  workspaceId: z.string(),
  outcome: z.string(),
  changes: z
    .array(
      z.object({
        field: z.string(),
        before: z.unknown().optional(),
        after: z.unknown().optional(),
        secret: z.literal(true).optional(),
      }),
    )
    .nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

/** What a write route's answer records, if anything: a refusal, or an event of routeEvents. */
function eventOf(request: FastifyRequest, status: number, payload: unknown): AuditEvent | undefined {
  const by = actorOf(request);
  const url = request.routeOptions.url;
  if (!by || !url) return undefined;
  const params = (request.params ?? {}) as Params;
  if (status === 403)
    return {
      action: "refused",
      kind: kindOf(url),
      recordId: params.id ?? params.entityId ?? "",
      workspaceId: params.workspaceId ?? "",
      outcome: "refused",
      detail: { method: request.method, path: request.url.split("?")[0] },
    };
  const key = `${request.method} ${url}`;
  const event = routeEvents[key];
  if (!event || (!ok(status) && !recordsFailures(key))) return undefined;
  let answer: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = typeof payload === "string" && payload ? JSON.parse(payload) : undefined;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      answer = parsed as Record<string, unknown>;
  } catch {
    answer = undefined;
  }
  return event({ params, body: request.body, query: (request.query ?? {}) as Params, status, answer });
}

const HOUR = 3_600_000;

/**
 * The audit trail: who changed what, when. Changes to records are written by the record layer in
 * their own transaction (routes write through `records.as(request.session)`); this plugin records
 * what passes elsewhere (broker writes, role assignments, synchronisations, sign-out, refused
 * writes), serves the trail read-only and keeps it within its retention. Registered before the
 * routes: its hooks go on each write route as it is added, none on reads.
 */
export function registerAudit(app: FastifyInstance, records: Records, config: Config): void {
  const db = records.database;
  records.keepTrail(config.auditTrail);
  if (config.auditTrail) {
    const write = (request: FastifyRequest, event: AuditEvent) =>
      writeAudit(db, request.session!, [event]).catch(
        // A trail that cannot be written must not undo the peer's answer: it is logged.
        (err: unknown) => request.log.error({ err }, "the audit event could not be written"),
      );
    // Only the routes that have events get a hook (every hook costs each request of its route).
    app.addHook("onRoute", (route) => {
      const keys = [route.method].flat().map((m) => `${m} ${route.url}`);
      if (!route.url.startsWith("/api") || !keys.some((key) => routeEvents[key])) return;
      // Written before the answer leaves: whoever reads the trail after it finds the event there.
      const record: onSendHookHandler = (request, reply, payload, done) => {
        // A refusal was recorded by the onError hook below.
        const event = reply.statusCode === 403 ? undefined : eventOf(request, reply.statusCode, payload);
        if (!event) return done(null, payload);
        void write(request, event).then(() => done(null, payload));
      };
      route.onSend = [...[route.onSend ?? []].flat(), record] as onSendHookHandler[];
    });
    // A write refused for lack of permission, on any route: refusals are thrown (the guard's and the
    // handlers'), so they pass here, and no other request pays for it. Aggregated by user and route.
    const refusals = new RefusalLog((by, event) =>
      writeAudit(db, by, [event]).catch((err: unknown) =>
        app.log.error({ err }, "the audit event of a refusal could not be written"),
      ),
    );
    app.addHook("onError", async (request, _reply, error) => {
      const status = (error as { status?: number; statusCode?: number }).status ?? error.statusCode;
      const url = request.routeOptions.url;
      if (status !== 403 || !writes.has(request.method) || !url?.startsWith("/api")) return;
      const event = eventOf(request, 403, undefined);
      if (event) await refusals.record(request.session!, `${request.method} ${url}`, event);
    });
    app.addHook("onClose", async () => refusals.close());
  }

  // Retention: the oldest events go, in the background, hourly (and once at start); a create's
  // event still on its record's row is cleared there. The database refuses any other delete or
  // change of the trail (migration 0022): this transaction names its cutoff for the triggers.
  const prune = async () => {
    const before = new Date(Date.now() - config.auditRetentionDays * 24 * HOUR);
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('orrery.audit_prune_before', ${before.toISOString()}, true)`);
        await tx.delete(auditEvents).where(lt(auditEvents.at, before));
        await tx.execute(
          sql`UPDATE records SET created_event = NULL, created_by = NULL
               WHERE created_event IS NOT NULL AND created_at < ${before}`,
        );
      });
    } catch (err) {
      app.log.error({ err }, "audit retention failed");
    }
  };
  const timer = setInterval(prune, HOUR);
  timer.unref();
  app.addHook("onReady", async () => {
    void prune();
  });
  app.addHook("onClose", async () => clearInterval(timer));

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/audit",
    {
      schema: {
        tags: ["audit"],
        summary:
          "The audit trail, newest first, filtered by user, kind, record, workspace, action and time; `next` is the cursor of the following page",
        querystring: query,
        response: {
          200: z.object({ items: z.array(eventSchema), next: z.string().nullable() }),
          400: problemSchema,
          403: problemSchema,
        },
      },
    },
    async (request) => {
      const q = request.query;
      // The newest page of each source, on its own index, merged in one statement (one snapshot: a
      // create's event that moves from its row to audit_events meanwhile shows once): audit_events,
      // and the creates whose event is still on their record's row (see keptCreates).
      const newest = (source: typeof auditEvents | typeof keptCreates) => {
        const where: SQL[] = [];
        if (q.user) where.push(or(eq(source.username, q.user), eq(source.subject, q.user))!);
        if (q.kind) where.push(eq(source.kind, q.kind));
        if (q.record) where.push(eq(source.recordId, q.record));
        if (q.workspace) where.push(eq(source.workspaceId, q.workspace));
        if (q.action) where.push(eq(source.action, q.action));
        if (q.from) where.push(gte(source.at, new Date(q.from)));
        if (q.to) where.push(lte(source.at, new Date(q.to)));
        if (q.cursor) where.push(lt(source.id, Number(q.cursor)));
        return db
          .select()
          .from(source)
          .where(where.length ? and(...where) : sql`true`)
          .orderBy(desc(source.id))
          .limit(q.limit + 1);
      };
      // (Asked for another action than a create, the second is empty: its constant action is
      // compared before any row is read.)
      const rows = await unionAll(newest(auditEvents), newest(keptCreates))
        .orderBy(desc(sql`id`))
        .limit(q.limit + 1);
      const page = rows.slice(0, q.limit);
      return {
        items: page.map(({ created, ...r }) => ({
          ...r,
          id: String(r.id),
          at: r.at.toISOString(),
          changes: changesListed(kindsByName.get(r.kind), { created, changes: r.changes }),
        })),
        next: rows.length > q.limit ? String(page.at(-1)!.id) : null,
      };
    },
  );
}
