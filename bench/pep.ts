/**
 * bench/pep (issue 35): what the embedded broker's policy enforcement point costs. One tenant of
 * the embedded broker holds ENTITIES shelves; the same reads go through the PEP as each kind of
 * holder, over real HTTP on the embedded default (PGlite):
 * - one entity read (GET /entities/{id}), one at a time, the holders taking turns so that drift
 *   touches all alike: an administrator, an operator, a broker client's key, and an iSHARE consumer
 *   (a Keyrock user whose role the registry permits, both fakes over HTTP, the decision cache warm):
 *   p50 and p95 by holder, and the p50's difference to an administrator's token (goal: an allowed
 *   read costs < 2 ms more at p50 than the same read by an admin token);
 * - a query page (GET /entities?type=Shelf&limit=20), CONCURRENCY in flight: throughput with the PEP
 *   (an operator's token, who passes by the workspaces they may read) against the same process run
 *   with BROKER_AUTH=open (goal: >= 80% of it).
 * Prints a table and writes bench/results/pep.json. Run: `npx tsx bench/pep.ts`.
 * Environment: BENCH_TIME_LIMIT_SECONDS (default 600).
 */
import { startFakeRegistry } from "../test/fakes/ishare-registry.ts";
import {
  ishareRecords,
  roleWithAccess,
  schemeParties,
  startConsumerKeyrock,
  userToken,
} from "../apps/api/test/support/consumer-peers.ts";
import { embeddedWorkspace, json, startApi } from "./lib/api.ts";
import { pgliteDriver } from "./lib/databases.ts";
import { request } from "./lib/http.ts";
import { median, percentile, Sample } from "./lib/measure.ts";
import { lat, loadAverage, met, rate, table, writeResults } from "./lib/report.ts";
import { runBench } from "./lib/run.ts";
import { sized } from "./lib/smoke.ts";

const ENTITIES = sized(1_000, 20);
const READS = sized(1_000, 20);
/** The entities read, each first once (cold), then again and again (warm). */
const WARM_IDS = sized(50, 5);
const QUERIES = sized(3_000, 40);
const CONCURRENCY = 8;
const TENANT = "pepbench";
const CONSUMER_TENANT = "pepconsumers";
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 600);
const LOAD_BEFORE = loadAverage();
const round = (n: number) => Math.round(n * 100) / 100;
const log = (...args: unknown[]) => console.error(...args);
const shelf = (i: number) => `urn:ngsi-ld:Shelf:${String(i).padStart(6, "0")}`;

type Api = Awaited<ReturnType<typeof startApi>>;

/**
 * An iSHARE consumer's token on the tenant `tenant`: a workspace there judged by a registry (Keyrock's
 * /ar, faked), whose role Shelf_reader may GET Shelf (synchronised with Permit), and the token of a
 * Keyrock user holding that role through an organisation. Returns the token and what to close.
 */
async function ishareConsumer(api: Api, serviceId: string, tenant: string) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await request(
      api.base + path,
      method,
      {
        authorization: `Bearer ${api.token}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    return res.text ? JSON.parse(res.text) : undefined;
  };
  const scheme = await schemeParties({ registry: "EU.EORI.NLKEYROCK" });
  const registry = await startFakeRegistry({
    credentials: scheme.registry,
    trustedRoots: [scheme.registry.root],
  });
  const keyrock = await startConsumerKeyrock("Shelf_reader");
  const trust = await ishareRecords(ok, registry, scheme.registry, keyrock);
  const workspace = await ok("POST", "/api/workspaces", {
    name: "Consumers",
    dataModelName: "pep-consumers",
    hasService: serviceId,
    contextBrokerTenant: tenant,
    enableOffers: true,
    ...trust,
  });
  const path = `/api/workspace/${workspace.id}`;
  const type = await ok("POST", `${path}/types`, { name: "Shelf" });
  await ok("POST", `${path}/properties`, {
    name: "numberOfItems",
    hasType: type.id,
    ngsiLdType: "Property",
    propertyNgsiLdValueType: "Number",
  });
  await ok("POST", `${path}/data-model/generate`);
  const role = await roleWithAccess(ok, path, {
    typeId: type.id,
    actions: ["GET"],
    roleName: "Shelf_reader",
    provider: scheme.registry.identifier,
  });
  await ok("POST", `${path}/roles/${role}/synchronize`, { effect: "Permit" });
  return {
    token: await userToken(keyrock, "alice@shop.example", "alice-pw"),
    close: async () => {
      await registry.close();
      await keyrock.close();
    },
  };
}

/** The shelves, written once by the administrator. */
async function fill(api: Api, tenant: string) {
  const headers = {
    authorization: `Bearer ${api.token}`,
    "ngsild-tenant": tenant,
    "content-type": "application/json",
  };
  for (let from = 0; from < ENTITIES; from += 500) {
    const batch = Array.from({ length: Math.min(500, ENTITIES - from) }, (_, k) => ({
      id: shelf(from + k),
      type: "Shelf",
      name: { type: "Property", value: `Shelf ${from + k}` },
      numberOfItems: { type: "Property", value: (from + k) % 100 },
    }));
    const res = await request(
      `${api.base}/ngsi-ld/v1/entityOperations/upsert`,
      "POST",
      headers,
      JSON.stringify(batch),
    );
    if (res.status !== 201 && res.status !== 204)
      throw new Error(`upsert: ${res.status} ${res.text.slice(0, 200)}`);
  }
}

const reader =
  (api: Api, credential: Record<string, string>, tenant = TENANT) =>
  async (path: string) => {
    const res = await request(`${api.base}/ngsi-ld/v1${path}`, "GET", {
      ...credential,
      "ngsild-tenant": tenant,
    });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 200)}`);
  };

/** Query throughput of two readers, CONCURRENCY in flight, after a warm-up, in chunks by turns. */
async function queriesInTurns(...readers: Array<(path: string) => Promise<void>>) {
  const pages = readers.map(
    (read) => (i: number) => read(`/entities?type=Shelf&limit=20&offset=${(i * 20) % ENTITIES}`),
  );
  for (const page of pages) await new Sample().run(0, sized(200, 5), CONCURRENCY, page);
  const samples = readers.map(() => new Sample());
  const chunk = Math.max(1, Math.floor(QUERIES / 10));
  for (let at = 0; at < QUERIES; at += chunk)
    for (const [k, page] of pages.entries())
      await samples[k]!.run(at, Math.min(QUERIES, at + chunk), CONCURRENCY, page);
  return samples.map((s) => s.figures());
}

async function main(): Promise<number> {
  const fresh = await pgliteDriver().fresh();
  const api = await startApi(fresh);
  try {
    const workspaceId = await embeddedWorkspace(api, api.port, "pep", { tenant: TENANT });
    await fill(api, TENANT);
    const { hasService } = await json<{ hasService: string }>(
      api.call("GET", `/api/workspaces/${workspaceId}`, 200),
    );
    const consumer = await ishareConsumer(api, hasService, CONSUMER_TENANT);
    await fill(api, CONSUMER_TENANT);
    const client = await json<{ key: string }>(
      api.call("POST", "/api/broker-clients", 201, {
        name: "Bench agent",
        tenants: [TENANT],
        access: "read",
      }),
    );
    const holders: Record<string, Record<string, string>> = {
      admin: { authorization: `Bearer ${api.token}` },
      operator: { authorization: `Bearer ${await api.tokenFor("operator")}` },
      "broker client": { authorization: `Bearer ${client.key}` },
      "iSHARE consumer": { authorization: `Bearer ${consumer.token}` },
    };
    log(`${ENTITIES} shelves; ${READS} reads by each of ${Object.keys(holders).length} holders, in turns...`);
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(holders).map((h) => [h, []]));
    const reads = Object.entries(holders).map(
      ([name, credential]) =>
        [name, reader(api, credential, name === "iSHARE consumer" ? CONSUMER_TENANT : TENANT)] as const,
    );
    // The first read of each entity is a consumer's cold decision (a registry round trip: its
    // required policy names the entity); the measured reads are warm, the goal's case.
    const cold: number[] = [];
    for (let i = 0; i < READS + WARM_IDS; i++)
      for (const [name, read] of reads) {
        const start = performance.now();
        await read(`/entities/${shelf(i % WARM_IDS)}`);
        const ms = performance.now() - start;
        if (i >= WARM_IDS) times[name]!.push(ms);
        else if (name === "iSHARE consumer") cold.push(ms);
      }
    const adminP50 = median(times.admin!);
    const byHolder = Object.fromEntries(
      Object.entries(times).map(([name, ms]) => {
        const sorted = [...ms].sort((a, b) => a - b);
        return [
          name,
          {
            p50Ms: round(median(ms)),
            p95Ms: round(percentile(sorted, 95)),
            moreThanAdminMs: round(median(ms) - adminP50),
          },
        ];
      }),
    );
    await consumer.close();
    // The same process's queries with the PEP (an operator) and without (a second API on the same
    // database, BROKER_AUTH=open), chunk by chunk in turns, so that warming and drift touch both alike.
    log(`query throughput, PEP on (operator) and BROKER_AUTH=open by turns, ${QUERIES} pages each...`);
    const openApi = await startApi(fresh, { BROKER_AUTH: "open" });
    const [enforced, open] = await queriesInTurns(reader(api, holders.operator!), reader(openApi, {}));
    await openApi.close();
    const keeps = enforced.perSecond / open.perSecond;
    const worstExtra = Math.max(...Object.values(byHolder).map((h) => h.moreThanAdminMs));
    const figures = {
      entities: ENTITIES,
      reads: READS,
      read: byHolder,
      consumerColdRead: { count: cold.length, p50Ms: round(median(cold)) },
      query: { enforced, open, keeps: round(keeps), concurrency: CONCURRENCY },
      goals: {
        readExtraP50Ms: { goal: 2, worst: worstExtra, met: worstExtra < 2 },
        queryThroughputKept: { goal: 0.8, value: round(keeps), met: keeps >= 0.8 },
      },
    };
    console.log(
      table(
        ["figure", "value", "goal", ""],
        [
          ...Object.entries(byHolder).map(([name, h]) => [
            `one entity read, ${name} (p50 / p95)`,
            `${h.p50Ms} / ${h.p95Ms} ms (${h.moreThanAdminMs >= 0 ? "+" : ""}${h.moreThanAdminMs} ms)`,
            name === "admin" ? "" : "< +2 ms",
            name === "admin" ? "" : met(h.moreThanAdminMs < 2),
          ]),
          [
            "first read of an entity, iSHARE consumer (cold: a registry round trip)",
            `${round(median(cold))} ms (p50)`,
            "",
            "",
          ],
          [
            `query page, PEP on (operator), ${CONCURRENCY} in flight`,
            `${rate(enforced)} (${lat(enforced)})`,
            "",
            "",
          ],
          [`query page, BROKER_AUTH=open`, `${rate(open)} (${lat(open)})`, "", ""],
          ["throughput kept with the PEP", `${Math.round(keeps * 100)}%`, ">= 80%", met(keeps >= 0.8)],
        ],
      ),
    );
    console.log(`written to ${writeResults("pep", LOAD_BEFORE, figures)}`);
    return 0;
  } finally {
    await api.close();
    await fresh.dispose();
  }
}

runBench(main, TIME_LIMIT_S);
