/**
 * bench/wot (issue 17, "Demo data and figures"): the time to render the public W3C WoT Thing
 * Description of a thing description with 500 properties and 100 actions (2 input properties
 * each), on the embedded default (PGlite), over real HTTP without a login: median and p95 of 30
 * requests after 3 warm-ups. Goal: median under 50 ms.
 * Prints a table and writes bench/results/wot.json. Run: `npx tsx bench/wot.ts`.
 * Environment: BENCH_TIME_LIMIT_SECONDS (default 600).
 */
import { embeddedWorkspace, json, startApi } from "./lib/api.ts";
import { request } from "./lib/http.ts";
import { median, percentile } from "./lib/measure.ts";
import { runBench } from "./lib/run.ts";
import { sized } from "./lib/smoke.ts";
import { pgliteDriver } from "./lib/databases.ts";
import { loadAverage, met, table, writeResults } from "./lib/report.ts";

const PROPERTIES = sized(500, 5);
const ACTIONS = sized(100, 2);
const INPUTS_PER_ACTION = 2;
const RUNS = sized(30, 3);
const WARM_UP = sized(3, 1);
const GOAL_MS = 50;
const TIME_LIMIT_S = Number(process.env.BENCH_TIME_LIMIT_SECONDS ?? 600);
const LOAD_BEFORE = loadAverage();
const round = (n: number) => Math.round(n * 10) / 10;
const log = (...args: unknown[]) => console.error(...args);

async function main(): Promise<number> {
  const fresh = await pgliteDriver().fresh();
  const api = await startApi(fresh);
  try {
    const ws = await embeddedWorkspace(api, api.port, "wot");
    const base = `/api/workspace/${ws}`;
    log(`a type with ${PROPERTIES} properties, a thing description with ${PROPERTIES} properties...`);
    const type = await json(api.call("POST", `${base}/types`, 201, { name: "Machine" }));
    const valueTypes = ["Number", "String", "Boolean"];
    await api.call("POST", `${base}/properties/import`, 201, {
      typeId: type.id,
      properties: Array.from({ length: PROPERTIES }, (_, i) => ({
        name: `p${i}`,
        ngsiLdType: "Property",
        propertyNgsiLdValueType: valueTypes[i % 3],
      })),
    });
    const properties = (
      await json<Array<{ id: string; name: string; propertyNgsiLdValueType?: string }>>(
        api.call("GET", `${base}/properties`, 200),
      )
    ).filter((p) => p.name.startsWith("p"));
    const td = await json(
      api.call("POST", `${base}/wot-thing-descriptions`, 201, { name: "Machine", hasType: type.id }),
    );
    const of = { hasWoTThingDescription: td.id };
    for (const [i, property] of properties.entries())
      await api.call("POST", `${base}/wot-properties`, 201, {
        name: `property${i}`,
        hasProperty: property.id,
        // A Range describes numbers only: on the Number attributes (a third of them).
        ...(property.propertyNgsiLdValueType === "Number"
          ? { capacityType: "Range", capacityValue: "[0, 1000]" }
          : { capacityType: "FreeText", capacityValue: "any" }),
        ...of,
      });
    log(`${ACTIONS} actions with ${INPUTS_PER_ACTION} input properties each...`);
    for (let a = 0; a < ACTIONS; a++) {
      const action = await json(api.call("POST", `${base}/wot-actions`, 201, { name: `action${a}`, ...of }));
      for (let i = 0; i < INPUTS_PER_ACTION; i++) {
        // An input writes its attribute, of the attribute's type (p0 Number, p1 String, p2 Boolean...).
        const n = a * INPUTS_PER_ACTION + i;
        const number = n % 3 === 0;
        await api.call("POST", `${base}/wot-action-input-properties`, 201, {
          name: `p${n}`,
          propertyType: ["number", "string", "boolean"][n % 3],
          ...(number ? { minimum: 0, maximum: 1000 } : {}),
          required: i === 0,
          hasWoTAction: action.id,
          ...of,
        });
      }
    }
    const url = `${api.base}/wot-thing-descriptions/${encodeURIComponent(td.id)}`;
    const times: number[] = [];
    let bytes = 0;
    for (let r = 0; r < WARM_UP + RUNS; r++) {
      const start = performance.now();
      const answer = await request(url, "GET");
      const ms = performance.now() - start;
      if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status}`);
      const parsed = JSON.parse(answer.text) as { properties: object; actions: object };
      if (
        Object.keys(parsed.properties).length !== PROPERTIES ||
        Object.keys(parsed.actions).length !== ACTIONS
      )
        throw new Error("the thing description is missing affordances");
      bytes = answer.text.length;
      if (r >= WARM_UP) times.push(ms);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const figures = {
      properties: PROPERTIES,
      actions: ACTIONS,
      inputProperties: ACTIONS * INPUTS_PER_ACTION,
      tdBytes: bytes,
      medianMs: round(median(times)),
      p95Ms: round(percentile(sorted, 95)),
      runsMs: times.map(round),
      goalMs: GOAL_MS,
      met: median(times) < GOAL_MS,
    };
    console.log(
      table(
        ["figure", "value", "goal", "", "runs"],
        [
          [
            `TD of ${PROPERTIES} properties, ${ACTIONS} actions (PGlite, HTTP)`,
            `${figures.medianMs} ms (p95 ${figures.p95Ms} ms, ${Math.round(bytes / 1024)} KiB)`,
            `< ${GOAL_MS} ms`,
            met(figures.met),
            "",
          ],
        ],
      ),
    );
    console.log(`written to ${writeResults("wot", LOAD_BEFORE, figures)}`);
    return 0;
  } finally {
    await api.close();
    await fresh.dispose();
  }
}

runBench(main, TIME_LIMIT_S);
