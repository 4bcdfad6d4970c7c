/**
 * A probe, not a bench (nothing is written to bench/results): the CPU an HTTP create costs before
 * any of Orrery's work. A bare Fastify server of the API's version in its own process answers
 * POST with the body it parsed (a JSON schema checked, 201 and a location header, as a create
 * answers); the benches' load generator (bench/lib/http.ts) sends it the context broker body of
 * bench/api-crud.ts, PROBE_CONCURRENCY in flight. Prints the server's and the load generator's CPU
 * time per request: the floor under the API's own figure (probe-api.ts) on this machine.
 *
 *   npx tsx bench/tools/probe-http-floor.ts   (PROBE_RECORDS 20000, PROBE_CONCURRENCY 32)
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../lib/api.ts";
import { brokerPayload } from "../lib/broker-payload.ts";
import { ownCpu, processCpu } from "../lib/cpu.ts";
import { request } from "../lib/http.ts";
import { Sample } from "../lib/measure.ts";

const N = Number(process.env.PROBE_RECORDS ?? 20_000);
const CONC = Number(process.env.PROBE_CONCURRENCY ?? 32);

// The server: Fastify as the API uses it (its JSON parser, a body schema, a serialized answer).
const server = `
import Fastify from "fastify";
const app = Fastify({ logger: false });
let made = 0;
app.post("/api/context-brokers", {
  schema: {
    body: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    response: { 201: { type: "object", additionalProperties: true } },
  },
}, async (request, reply) => {
  const id = "urn:ngsi-ld:ContextBroker:" + ++made;
  return reply.code(201).header("location", "/api/context-brokers/" + id).header("etag", '"1"').send({ id, ...request.body });
});
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
`;

const port = await freePort();
const child = spawn(process.execPath, ["--input-type=module", "-e", server], {
  cwd: join(import.meta.dirname, "../../apps/api"),
  env: { ...process.env, PORT: String(port) },
  stdio: ["ignore", "inherit", "inherit"],
});
try {
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    const up = await fetch(base).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const post = async (i: number) => {
    const res = await request(
      `${base}/api/context-brokers`,
      "POST",
      { "content-type": "application/json", authorization: "Bearer probe" },
      JSON.stringify(brokerPayload(i)),
    );
    if (res.status !== 201) throw new Error(`${res.status}: ${res.text}`);
  };
  await new Sample().run(0, Math.min(N, 5000), CONC, post); // warm
  const before = { server: processCpu(child.pid!), own: ownCpu() };
  const sample = new Sample();
  await sample.run(0, N, CONC, post);
  const f = sample.figures();
  console.log(
    `bare Fastify create, ${CONC} in flight: ${f.perSecond}/s, CPU ${Math.round((processCpu(child.pid!) - before.server) / N)} µs a request in the server, ` +
      `${Math.round((ownCpu() - before.own) / N)} µs in the load generator`,
  );
} finally {
  child.kill("SIGTERM");
}
process.exit(0);
