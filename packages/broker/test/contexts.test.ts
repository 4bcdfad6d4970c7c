import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";
import jsonld from "jsonld";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE_CONTEXT_URL, ContextResolver } from "../src/contexts.ts";
import { NgsiLdError } from "../src/problems.ts";

const fixtures = resolve(import.meta.dirname, "../../../../shared/fixtures");
const userContext = JSON.parse(
  readFileSync(resolve(fixtures, "tutorials/entity-relationships-user-context.jsonld"), "utf8"),
);
const core = JSON.parse(
  readFileSync(resolve(import.meta.dirname, "../contexts/core-context-v1.8.jsonld"), "utf8"),
);
const USER = "http://contexts.test/user-context.jsonld";

let server: Server;
let base: string;
let hits = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === "/slow") return void setTimeout(() => res.end("{}"), 2000);
    if (req.url === "/ctx.jsonld")
      return void res
        .setHeader("content-type", "application/ld+json")
        .end(JSON.stringify({ "@context": { hello: "https://example.org/hello" } }));
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("@context processing", () => {
  const resolver = new ContextResolver({ timeoutMs: 300, localContexts: { [USER]: userContext } });

  it("expands and compacts names exactly as jsonld.js does, through the term map", async () => {
    const ctx = await resolver.compile(USER);
    const loader = async (url: string) => ({
      contextUrl: null,
      documentUrl: url,
      document: url === USER ? userContext : core,
    });
    const terms = [
      "Building",
      "name",
      "temperature",
      "owner",
      "address",
      "location",
      "unknownThing",
      "schema:email",
      "urn:x:y",
      "https://example.org/full",
    ];
    const doc: Record<string, unknown> = {
      "@context": [USER, CORE_CONTEXT_URL],
      "@id": "urn:a",
      "@type": "Building",
    };
    for (const t of terms) doc[t] = { "@value": 1 };
    const [expanded] = (await jsonld.expand(doc, { documentLoader: loader as never })) as Array<
      Record<string, unknown>
    >;
    for (const t of terms) expect(Object.keys(expanded!), t).toContain(ctx.expand(t));
    expect(expanded!["@type"]).toEqual([ctx.expand("Building")]);
    const compacted = (await jsonld.compact(expanded!, [USER, CORE_CONTEXT_URL] as never, {
      documentLoader: loader as never,
    })) as Record<string, unknown>;
    for (const t of terms) expect(Object.keys(compacted), t).toContain(ctx.compact(ctx.expand(t)));
  });

  it("uses the core context alone by default (@vocab default-context)", async () => {
    const ctx = await resolver.compile(undefined);
    expect(ctx.expand("Building")).toBe("https://uri.etsi.org/ngsi-ld/default-context/Building");
    expect(ctx.expand("location")).toBe("https://uri.etsi.org/ngsi-ld/location");
    expect(ctx.compact("https://uri.etsi.org/ngsi-ld/default-context/Building")).toBe("Building");
    expect(ctx.compact("https://smartdatamodels.org/dataModel.Building/Building")).toBe(
      "https://smartdatamodels.org/dataModel.Building/Building",
    );
    expect(ctx.linkUrl).toBe(CORE_CONTEXT_URL);
  });

  it("serves the core context versions locally", async () => {
    for (const url of [
      "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context.jsonld",
      "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.6.jsonld",
    ]) {
      const ctx = await resolver.compile(url);
      expect(ctx.expand("observedAt")).toBe("https://uri.etsi.org/ngsi-ld/observedAt");
    }
  });

  it("fetches an unknown remote context once and caches it", async () => {
    const before = hits;
    const a = await resolver.compile(`${base}/ctx.jsonld`);
    const b = await resolver.compile([`${base}/ctx.jsonld`, { other: "https://example.org/other" }]);
    expect(a.expand("hello")).toBe("https://example.org/hello");
    expect(b.expand("hello")).toBe("https://example.org/hello");
    expect(hits - before).toBe(1);
  });

  it("answers LdContextNotAvailable for a missing, slow or unreachable context, and retries later", async () => {
    for (const url of [`${base}/missing.jsonld`, `${base}/slow`, "http://127.0.0.1:1/ctx.jsonld"]) {
      const error = await resolver.compile(url).catch((e) => e);
      expect(error, url).toBeInstanceOf(NgsiLdError);
      expect((error as NgsiLdError).status).toBe(503);
      expect((error as NgsiLdError).errorType).toBe("LdContextNotAvailable");
    }
    const before = hits;
    await resolver.compile(`${base}/missing.jsonld`).catch(() => undefined);
    expect(hits - before).toBe(1);
  });

  it("rejects an invalid context as BadRequestData", async () => {
    const error = await resolver.compile({ "@vocab": 42 }).catch((e) => e);
    expect((error as NgsiLdError).errorType).toBe("BadRequestData");
  });

  it("keeps the core meaning of a core term a user context redefines (the core context is applied last)", async () => {
    const ctx = await resolver.compile({ location: "https://example.org/myLocation" });
    expect(ctx.expand("location")).toBe("https://uri.etsi.org/ngsi-ld/location");
  });
});
