import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { and, desc, eq, gte, lt, lte, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Sessions } from "../auth/sessions.ts";
import type { Config } from "../config.ts";
import { logPageFields } from "../log-page.ts";
import { problemSchema } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { dataAccessDecisions } from "../storage/schema.ts";
import { DecisionLog, decisionReasons, holderKinds } from "./decisions.ts";
import type { BrokerClientKeys } from "./broker-clients.ts";
import { registerPep } from "./enforce.ts";
import { addOwnOrigins, internalToken, ownOrigins } from "./internal.ts";
import { TenantWorkspaces } from "./tenants.ts";
import { consumerJudge } from "./consumers.ts";
import { registerConsumerGuide } from "./consumer-guide.ts";
import { WorkspaceTypes } from "./type-names.ts";

const filters = z
  .object({
    holder: z.string().max(200).optional(),
    tenant: z.string().max(100).optional(),
    permit: z.enum(["true", "false"]).optional(),
    reason: z.enum(decisionReasons).optional(),
    holderKind: z.enum(holderKinds).optional(),
    method: z.string().max(10).optional(),
    ...logPageFields,
  })
  .strict();

const decisionSchema = z.object({
  id: z.string(),
  at: z.string(),
  lastAt: z.string(),
  count: z.number(),
  holder: z.string(),
  holderKind: z.string(),
  party: z.string(),
  clientId: z.string(),
  roles: z.array(z.string()).nullable(),
  method: z.string(),
  tenant: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  path: z.string(),
  permit: z.boolean(),
  reason: z.string(),
  detail: z.string(),
});
const page = z.object({
  items: z.array(decisionSchema),
  next: z.string().nullable(),
  /** A workspace's panel: whether its data is on this process's embedded broker (else the PEP never sees it). */
  onEmbeddedBroker: z.boolean().optional(),
});

/** Routes whose writes change which workspace uses which tenant of the embedded broker. */
const changesTenants = /^\/api\/(workspaces|services|context-brokers)(\/|$)/;

/**
 * Data access: the embedded broker's policy enforcement point and its decision log. Registered
 * before the broker, so that its hooks run on the broker's routes. `key` is the encryption key, from
 * which the API's own credential to its broker is derived (never stored, never sent elsewhere).
 */
export function registerDataAccess(
  app: FastifyInstance,
  records: Records,
  config: Config,
  key: Buffer,
  sessions: Sessions,
  clients?: BrokerClientKeys,
): { tenants: TenantWorkspaces; decisions: DecisionLog } {
  const token = internalToken(key);
  // This process's origins: as configured, and once it listens, at the port it got (PORT=0 in tests).
  const ownAt = (port: number) =>
    addOwnOrigins(ownOrigins([config.publicUrl, config.liveNotifyUrl], port), token);
  const removals = [ownAt(config.port)];
  app.addHook("onListen", async () => {
    const address = app.server.address() as AddressInfo | null;
    if (address && typeof address === "object") removals.push(ownAt(address.port));
  });
  const tenants = new TenantWorkspaces(records);
  const decisions = new DecisionLog(records.database, app.log, config.auditRetentionDays);
  app.addHook("onReady", async () => void decisions.prune());
  app.addHook("onClose", async () => {
    for (const remove of removals) remove();
    await decisions.close();
  });
  app.addHook("onRoute", (route) => {
    if (!changesTenants.test(route.url) || [route.method].flat().every((m) => m === "GET" || m === "HEAD"))
      return;
    route.onResponse = [
      ...[route.onResponse ?? []].flat(),
      async (_request: unknown, reply: { statusCode: number }) => {
        if (reply.statusCode < 300) tenants.invalidate();
      },
    ] as never;
  });
  // One judge for the PEP and the consumers' dry run: the dry run answers from the same cache.
  const judge = consumerJudge(records, { cacheMs: config.pepDecisionCacheSeconds * 1000 });
  if (config.brokerAuth === "enforce")
    registerPep(app, {
      sessions,
      tenants,
      decisions,
      internalToken: token,
      ...(clients ? { clients } : {}),
      consumers: { judge, types: new WorkspaceTypes(records, config) },
    });
  registerConsumerGuide(app, records, config, judge, tenants);

  const db = records.database;
  const list = async (q: z.infer<typeof filters>, tenant?: string) => {
    const where: SQL[] = [];
    const t = dataAccessDecisions;
    if (tenant !== undefined) where.push(eq(t.tenant, tenant));
    else if (q.tenant !== undefined) where.push(eq(t.tenant, q.tenant));
    if (q.holder) where.push(or(eq(t.holder, q.holder), eq(t.clientId, q.holder), eq(t.party, q.holder))!);
    if (q.permit) where.push(eq(t.permit, q.permit === "true"));
    if (q.reason) where.push(eq(t.reason, q.reason));
    if (q.holderKind) where.push(eq(t.holderKind, q.holderKind));
    if (q.method) where.push(eq(t.method, q.method.toUpperCase()));
    if (q.from) where.push(gte(t.lastAt, new Date(q.from)));
    if (q.to) where.push(lte(t.at, new Date(q.to)));
    if (q.cursor) where.push(lt(t.id, Number(q.cursor)));
    // What was decided until now is in the log before it is read.
    await decisions.flush();
    const rows = await db
      .select()
      .from(t)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(t.id))
      .limit(q.limit + 1);
    const items = rows.slice(0, q.limit).map((r) => ({
      ...r,
      id: String(r.id),
      at: r.at.toISOString(),
      lastAt: r.lastAt.toISOString(),
    }));
    return { items, next: rows.length > q.limit ? items.at(-1)!.id : null };
  };

  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["data access"];
  api.get(
    "/api/data-access",
    {
      schema: {
        tags,
        summary:
          "The embedded broker's access decisions, newest first: who was let read or write which data, or refused and why; `next` is the cursor of the following page",
        querystring: filters,
        response: { 200: page, 400: problemSchema, 403: problemSchema },
      },
    },
    async (request) => list(request.query),
  );
  api.get(
    "/api/workspace/:workspaceId/data-access",
    {
      schema: {
        tags,
        summary: "The access decisions on the tenant of the embedded broker that this workspace uses",
        params: z.object({ workspaceId: z.string() }),
        querystring: filters,
        response: { 200: page, 400: problemSchema, 403: problemSchema, 404: problemSchema },
      },
    },
    async (request) => {
      await records.requireWorkspace(request.params.workspaceId);
      const tenant = await tenants.tenantOf(request.params.workspaceId);
      if (tenant === undefined) return { items: [], next: null, onEmbeddedBroker: false };
      return { ...(await list(request.query, tenant)), onEmbeddedBroker: true };
    },
  );
  return { tenants, decisions };
}
