import { describe, expect, it } from "vitest";
import { listen } from "../../../../test/fakes/http.ts";
import { workspaceBroker, workspaceContextUrl } from "../../src/context-data/broker-access.ts";
import { driver } from "../support/harness.ts";
import { useEmbeddedWorkspace } from "../support/embedded-workspace.ts";

const ctx = useEmbeddedWorkspace();

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe(`temporal history through the API, from the embedded broker's temporal API (${driver})`, () => {
  it("answers the values of one attribute between two times, in the original's shape", async () => {
    const ws = await ctx.another();
    const id = "urn:ngsi-ld:Building:history";
    const url = `${ws.path}/entities/${encodeURIComponent(id)}`;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    await ctx.api("POST", `${ws.path}/entities`, {
      id,
      type: "Building",
      temperature: { type: "Property", value: 10, observedAt: at(90) },
    });
    for (const [value, minutes] of [
      [11, 50],
      [12, 30],
      [13, 10],
    ] as const) {
      const res = await ctx.api("PUT", `${url}/attrs/temperature`, {
        type: "Property",
        value,
        observedAt: at(minutes),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const property = ws.properties["Building.temperature"]!;
    const base = `${ws.path}/temporal-entities/${encodeURIComponent(id)}/properties/${property}/temporal-services/${ws.temporalServiceId}`;
    const fromTime = unix(at(60));
    const toTime = unix(at(0)) + 1;
    const res = await ctx.api("GET", `${base}?fromTime=${fromTime}&toTime=${toTime}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id, name: "temperature", fromTime, toTime });
    expect(res.body.data.map((d: { value: number }) => d.value).sort()).toEqual([11, 12, 13]);
    expect(res.body.data.every((d: { observedAt: string }) => !Number.isNaN(Date.parse(d.observedAt)))).toBe(
      true,
    );

    const all = await ctx.api("GET", base);
    expect(all.body.data.map((d: { value: number }) => d.value).sort()).toEqual([10, 11, 12, 13]);
  });

  it("answers values written without observedAt (as a WoT action writes) with their modifiedAt and createdAt", async () => {
    const ws = await ctx.another();
    const id = "urn:ngsi-ld:Building:undated";
    // As a WoT action writes: straight to the broker, without observedAt.
    const row = await ctx.t.records.requireWorkspace(ws.workspace.id);
    const client = await workspaceBroker(ctx.t.records, row, {
      context: workspaceContextUrl(ctx.t.config, row),
    });
    const before = Date.now();
    await client.createEntity({ id, type: "Building", temperature: { type: "Property", value: 10 } });
    for (const value of [500, 40])
      await client.updateAttribute(id, "temperature", { type: "Property", value });
    const property = ws.properties["Building.temperature"]!;
    const base = `${ws.path}/temporal-entities/${encodeURIComponent(id)}/properties/${property}/temporal-services/${ws.temporalServiceId}`;
    const res = await ctx.api(
      "GET",
      `${base}?fromTime=${unix(new Date(Date.now() - 3600_000).toISOString())}&toTime=${unix(new Date().toISOString()) + 1}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data as Array<{
      value: number;
      observedAt?: string;
      modifiedAt?: string;
      createdAt?: string;
    }>;
    expect(data.map((d) => d.value).sort((a, b) => a - b)).toEqual([10, 40, 500]);
    for (const d of data) {
      expect(d.observedAt).toBeUndefined();
      expect(Date.parse(String(d.modifiedAt))).toBeGreaterThanOrEqual(before - 1_000);
      expect(Date.parse(String(d.createdAt))).not.toBeNaN();
    }
  });

  it("answers 404 for a temporal service the workspace does not use, and an empty history for a quiet attribute", async () => {
    const ws = await ctx.another();
    const other = await ctx.api("POST", "/api/temporal-services", {
      name: "Unused",
      temporalServiceType: "ngsi-ld",
    });
    const id = "urn:ngsi-ld:Building:quiet";
    await ctx.api("POST", `${ws.path}/entities`, {
      id,
      type: "Building",
      name: { type: "Property", value: "Q" },
    });
    const property = ws.properties["Building.temperature"]!;
    const path = (ts: string) =>
      `${ws.path}/temporal-entities/${encodeURIComponent(id)}/properties/${property}/temporal-services/${ts}`;
    expect((await ctx.api("GET", path(other.body.id))).status).toBe(404);
    const quiet = await ctx.api("GET", path(ws.temporalServiceId));
    expect(quiet.status, JSON.stringify(quiet.body)).toBe(200);
    expect(quiet.body.data).toEqual([]);
  });
});

describe(`temporal history from a Mintaka (${driver})`, () => {
  it("asks Mintaka's own address with the tenant and reports the window it actually covered (206 Content-Range)", async () => {
    const seen: Array<{ url: string; tenant: unknown }> = [];
    const mintaka = await listen((req, res) => {
      seen.push({ url: req.url ?? "", tenant: req.headers["ngsild-tenant"] });
      res.writeHead(206, {
        "content-type": "application/json",
        "content-range": "date 2026-11-22T10:00:00Z-2026-11-22T10:30:00Z/2",
      });
      res.end(
        JSON.stringify({
          id: "urn:ngsi-ld:Building:m",
          type: "Building",
          temperature: [
            { type: "Property", value: 1, observedAt: "2026-11-22T10:10:00Z" },
            { type: "Property", value: 2, observedAt: "2026-11-22T10:20:00Z" },
          ],
        }),
      );
    });
    try {
      const url = new URL(mintaka.url);
      const service = await ctx.api("POST", "/api/temporal-services", {
        name: "Mintaka",
        temporalServiceType: "mintaka",
        version: "0.7",
        scheme: "http",
        host: url.hostname,
        port: Number(url.port),
        path: "/ngsi-ld/v1",
      });
      expect(service.status, JSON.stringify(service.body)).toBe(201);
      const ws = await ctx.another();
      const { body: workspace } = await ctx.api("GET", `/api/workspaces/${ws.workspace.id}`);
      const { id: _id, dataModelUpToDate: _u, dataModelVersion: _v, ...fields } = workspace;
      const put = await ctx.api("PUT", `/api/workspaces/${ws.workspace.id}`, {
        ...fields,
        temporalServices: [...workspace.temporalServices, service.body.id],
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const property = ws.properties["Building.temperature"]!;
      const res = await ctx.api(
        "GET",
        `${ws.path}/temporal-entities/urn:ngsi-ld:Building:m/properties/${property}/temporal-services/${service.body.id}?fromTime=1795384800&toTime=1795392000`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        fromTime: unix("2026-11-22T10:00:00Z"),
        toTime: unix("2026-11-22T10:30:00Z"),
        data: [{ value: 1 }, { value: 2 }],
      });
      expect(seen[0]!.url).toMatch(/^\/ngsi-ld\/v1\/temporal\/entities\/urn:ngsi-ld:Building:m\?/);
      expect(seen[0]!.url).toContain("timerel=between");
      expect(seen[0]!.url).toContain("attrs=temperature");
      expect(seen[0]!.tenant).toBe(ws.workspace.contextBrokerTenant);
    } finally {
      await mintaka.close();
    }
  });
});
