import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";
import { client, startTestApp } from "./support/harness.ts";

/**
 * The embedded broker is its own policy enforcement point (issue 35): every /ngsi-ld/v1 request
 * needs a credential; a console user reaches a tenant exactly as they may read or write a workspace
 * on it; every decision is in the data access log.
 */
const w = useEmbeddedWorkspace();

const shelf = (id: string) => ({ id, type: "Building", name: { type: "Property", value: "Shelf .*+?(|\\" } });
const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
  const res = await w.t.app.inject({
    method: method as "GET",
    url: `/ngsi-ld/v1${path}`,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const tenantOf = (workspace: Record<string, unknown>) => String(workspace.contextBrokerTenant);

describe("without a credential", () => {
  it("every route of the embedded broker answers 401 with WWW-Authenticate and a problem body", async () => {
    expect(w.t.brokerRoutes.length).toBeGreaterThan(40);
    const id = "urn:ngsi-ld:Building:pep-anonymous";
    const tenant = tenantOf(w.workspace);
    await call(
      "POST",
      "/entities",
      { ...bearer(await w.t.tokenFor("admin")), "ngsild-tenant": tenant },
      shelf(id),
    );
    for (const route of w.t.brokerRoutes.filter((r) => r.method !== "HEAD")) {
      const url = route.url
        .replace("/ngsi-ld/v1", "")
        .replace(/:entityId/, encodeURIComponent(id))
        .replace(/:(\w+)/g, "x")
        .replace("*", "entities");
      const hasBody = ["POST", "PATCH", "PUT"].includes(route.method);
      const res = await call(route.method, url, { "ngsild-tenant": tenant }, hasBody ? shelf(id) : undefined);
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="ngsi-ld"');
      expect(res.body).toMatchObject({ status: 401, title: "Unauthorized", reason: "noToken" });
      expect(res.body.detail).toContain("Authorization: Bearer");
    }
    const head = await call("HEAD", "/entities?type=Building", { "ngsild-tenant": tenant });
    expect(head.status).toBe(401);
    // Nothing was changed by any of them.
    const read = await call("GET", `/entities/${encodeURIComponent(id)}`, {
      ...bearer(await w.t.tokenFor("admin")),
      "ngsild-tenant": tenant,
    });
    expect(read.body.name.value).toBe("Shelf .*+?(|\\");
  });

  it("a percent-encoded or absolute target is decided on the route the router serves", async () => {
    const tenant = { "ngsild-tenant": tenantOf(w.workspace) };
    for (const target of [
      "/ngsi-ld/v1/%65ntities?type=Building",
      "/ngsi-ld/%76%31/entities?type=Building",
      "/ngsi-ld/v1//entities?type=Building",
    ]) {
      const res = await w.t.app.inject({ method: "GET", url: target, headers: tenant });
      expect(res.statusCode, target).not.toBe(200);
      expect(res.body).not.toContain("Shelf");
    }
  });

  it("an unknown token, an unreadable header and two different tokens are 401 invalid_token", async () => {
    const admin = await w.t.tokenFor("admin");
    for (const [headers, reason] of [
      [{ authorization: "Bearer nope" }, "unknownToken"],
      [{ "x-auth-token": "nope" }, "unknownToken"],
      [{ authorization: `Basic ${admin}` }, "badCredential"],
      [{ authorization: `Bearer ${admin} extra` }, "badCredential"],
      [{ authorization: `Bearer ${admin}`, "x-auth-token": "other" }, "badCredential"],
    ] as const) {
      const res = await call("GET", "/types", headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers["www-authenticate"]).toContain('error="invalid_token"');
      expect(res.body.reason).toBe(reason);
    }
    // The FIWARE PEPs' header is a credential like Authorization (same token in both is one credential).
    expect((await call("GET", "/types", { "x-auth-token": admin })).status).toBe(200);
    expect(
      (await call("GET", "/types", { authorization: `Bearer ${admin}`, "x-auth-token": admin })).status,
    ).toBe(200);
  });
});

describe("console users", () => {
  it("a viewer reads a workspace's tenant and is refused writes; an operator writes; a tenant without workspace is the admin's", async () => {
    const tenant = { "ngsild-tenant": tenantOf(w.workspace) };
    const viewer = bearer(await w.t.tokenFor("viewer"));
    const operator = bearer(await w.t.tokenFor("operator"));
    const admin = bearer(await w.t.tokenFor("admin"));
    const id = `urn:ngsi-ld:Building:pep-${Date.now()}`;

    expect((await call("POST", "/entities", { ...viewer, ...tenant }, shelf(id))).status).toBe(403);
    expect((await call("POST", "/entities", { ...operator, ...tenant }, shelf(id))).status).toBe(201);
    const read = await call("GET", "/entities?type=Building", { ...viewer, ...tenant });
    expect(read.status).toBe(200);
    expect(read.body.map((e: { id: string }) => e.id)).toContain(id);
    const refused = await call(
      "PATCH",
      `/entities/${encodeURIComponent(id)}/attrs`,
      { ...viewer, ...tenant },
      {
        name: { type: "Property", value: "changed" },
      },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reason: "readOnly", status: 403 });
    expect(refused.body.detail).toContain(tenant["ngsild-tenant"]);
    // A query is a read, though it is a POST.
    expect(
      (
        await call(
          "POST",
          "/entityOperations/query",
          { ...viewer, ...tenant },
          { type: "Query", entities: [{ type: "Building" }] },
        )
      ).status,
    ).toBe(200);

    for (const who of [viewer, operator]) {
      const elsewhere = await call("GET", "/entities?type=Building", {
        ...who,
        "ngsild-tenant": "nobodys-tenant",
      });
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.body.reason).toBe("noWorkspace");
      expect((await call("GET", "/types", who)).status).toBe(403);
    }
    expect(
      (await call("GET", "/entities?type=Building", { ...admin, "ngsild-tenant": "nobodys-tenant" })).status,
    ).not.toBe(403);

    const french = await call("GET", "/types", { ...viewer, "accept-language": "fr" });
    expect(french.body.detail).toContain("tenant par défaut");
  });

  it("a user reaches exactly the tenants of the workspaces they may read", async () => {
    const other = await w.another();
    const only = await w.t.tokenWith([
      { action: "GET", resource: `^/api/workspace/${other.workspace.id}/.*` },
    ]);
    const admin = bearer(await w.t.tokenFor("admin"));
    const otherTenant = { "ngsild-tenant": tenantOf(other.workspace) };
    expect(
      (await call("POST", "/entities", { ...admin, ...otherTenant }, shelf("urn:ngsi-ld:Building:only")))
        .status,
    ).toBe(201);
    expect(
      (await call("GET", "/types", { ...bearer(only), "ngsild-tenant": tenantOf(other.workspace) })).status,
    ).toBe(200);
    const theirs = await call("GET", "/types", { ...bearer(only), "ngsild-tenant": tenantOf(w.workspace) });
    expect(theirs.status).toBe(403);
    expect(theirs.body.reason).toBe("forbidden");
  });

  it("only an administrator makes the broker call a private address", async () => {
    const tenant = { "ngsild-tenant": tenantOf(w.workspace) };
    const subscription = (uri: string) => ({
      type: "Subscription",
      entities: [{ type: "Building" }],
      notification: { endpoint: { uri, accept: "application/json" } },
    });
    const operator = bearer(await w.t.tokenFor("operator"));
    for (const uri of ["http://127.0.0.1:9/hook", "http://[::ffff:10.0.0.1]/hook", "http://localhost:9/x"]) {
      const res = await call("POST", "/subscriptions", { ...operator, ...tenant }, subscription(uri));
      expect(res.status, uri).toBe(403);
      expect(res.body.reason).toBe("privateEndpoint");
    }
    const registration = await call(
      "POST",
      "/csourceRegistrations",
      { ...operator, ...tenant },
      {
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Building" }] }],
        endpoint: "http://192.168.1.10:1026",
      },
    );
    expect(registration.status).toBe(403);
    expect(
      (
        await call(
          "POST",
          "/subscriptions",
          { ...operator, ...tenant },
          subscription("http://93.184.216.34/hook"),
        )
      ).status,
    ).toBe(201);
    const admin = bearer(await w.t.tokenFor("admin"));
    expect(
      (await call("POST", "/subscriptions", { ...admin, ...tenant }, subscription("http://127.0.0.1:9/hook")))
        .status,
    ).toBe(201);
    // The API's own route to the same broker asks the same.
    const operatorApi = client(w.t, await w.t.tokenFor("operator"));
    const viaApi = await operatorApi("POST", `${w.path}/subscriptions`, subscription("http://10.1.2.3/hook"));
    expect(viaApi.status).toBe(403);
    expect(viaApi.body.code).toBe("pep.privateEndpoint");
    expect(
      (await w.api("POST", `${w.path}/subscriptions`, subscription("http://10.1.2.3/hook"))).status,
    ).toBe(201);
  });
});

describe("broker clients", () => {
  it("a key reaches its tenants with its access, and nothing once revoked", async () => {
    const tenant = tenantOf(w.workspace);
    const created = await w.api("POST", "/api/broker-clients", {
      name: "Shelf sensor agent",
      tenants: [tenant],
      access: "read",
    });
    expect(created.status).toBe(201);
    const key = bearer(created.body.key);
    const read = await call("GET", "/entities?type=Building", { ...key, "ngsild-tenant": tenant });
    expect(read.status).toBe(200);
    const write = await call(
      "POST",
      "/entities",
      { ...key, "ngsild-tenant": tenant },
      shelf("urn:ngsi-ld:Building:agent"),
    );
    expect(write.status).toBe(403);
    expect(write.body.reason).toBe("clientReadOnly");
    const elsewhere = await call("GET", "/types", key);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.reason).toBe("clientScope");

    const { etag } = (await w.api("GET", `/api/broker-clients/${created.body.id}`)).headers as {
      etag: string;
    };
    const writer = await w.api(
      "PUT",
      `/api/broker-clients/${created.body.id}`,
      { name: "Shelf sensor agent", tenants: [tenant], access: "write" },
      { "if-match": etag },
    );
    expect(writer.status).toBe(200);
    expect(
      (
        await call(
          "POST",
          "/entities",
          { ...key, "ngsild-tenant": tenant },
          shelf("urn:ngsi-ld:Building:agent"),
        )
      ).status,
    ).toBe(201);

    const revoked = await w.api("POST", `/api/broker-clients/${created.body.id}/revoke`);
    expect(revoked.status).toBeLessThan(300);
    const after = await call("GET", "/entities?type=Building", { ...key, "ngsild-tenant": tenant });
    expect(after.status).toBe(401);
    expect(after.body.reason).toBe("unknownToken");

    const log = await w.api("GET", `/api/data-access?holder=${encodeURIComponent("Shelf sensor agent")}`);
    expect(log.body.items.map((d: { reason: string }) => d.reason)).toEqual(
      expect.arrayContaining(["permit", "clientReadOnly", "clientScope"]),
    );
    expect(JSON.stringify(log.body)).not.toContain(created.body.key);
  });
});

describe("the data access log", () => {
  it("lists every decision with its reason, to administrators only, and a workspace's own to its operators", async () => {
    const tenant = tenantOf(w.workspace);
    const viewerToken = await w.t.tokenFor("viewer");
    await call("DELETE", `/entities/${encodeURIComponent("urn:ngsi-ld:Building:x")}`, {
      ...bearer(viewerToken),
      "ngsild-tenant": tenant,
    });
    await call("GET", "/entities?type=Building", { "ngsild-tenant": tenant });
    const api = client(w.t, await w.t.tokenFor("admin"));
    const denied = await api("GET", `/api/data-access?permit=false&tenant=${tenant}`);
    expect(denied.status).toBe(200);
    const reasons = denied.body.items.map((d: { reason: string }) => d.reason);
    expect(reasons).toContain("readOnly");
    expect(reasons).toContain("noToken");
    const readOnly = denied.body.items.find((d: { reason: string }) => d.reason === "readOnly");
    expect(readOnly).toMatchObject({
      holderKind: "user",
      method: "DELETE",
      permit: false,
      entityId: "urn:ngsi-ld:Building:x",
    });
    const permits = await api("GET", `/api/data-access?permit=true&holderKind=user`);
    expect(permits.body.items.some((d: { entityType: string }) => d.entityType === "Building")).toBe(true);

    expect((await client(w.t, viewerToken)("GET", "/api/data-access")).status).toBe(403);
    expect((await client(w.t, viewerToken)("GET", `${w.path}/data-access`)).status).toBe(403);
    const panel = await client(w.t, await w.t.tokenFor("operator"))(
      "GET",
      `${w.path}/data-access?permit=false`,
    );
    expect(panel.status).toBe(200);
    expect(panel.body.onEmbeddedBroker).toBe(true);
    expect(panel.body.items.every((d: { tenant: string }) => d.tenant === tenant)).toBe(true);
    // No token is ever in the log or the server's log lines.
    expect(JSON.stringify(denied.body)).not.toContain(viewerToken);
    expect(w.t.logs.join("\n")).not.toContain(viewerToken);
  });

  it("a flood of refusals costs a bounded number of rows", async () => {
    for (let i = 0; i < 300; i++) await call("GET", "/types");
    const api = client(w.t, await w.t.tokenFor("admin"));
    const rows = await api("GET", "/api/data-access?reason=noToken&limit=500");
    const typesRows = rows.body.items.filter((d: { path: string }) => d.path === "/types");
    expect(typesRows.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBeGreaterThanOrEqual(300);
    expect(typesRows.length).toBeLessThan(20);
  });
});

describe("BROKER_AUTH=open", () => {
  it("is refused unless the process listens on loopback", () => {
    expect(() => loadConfig({ BROKER_AUTH: "open", HOST: "0.0.0.0" })).toThrow(/loopback/);
    expect(() => loadConfig({ BROKER_AUTH: "maybe" })).toThrow(/enforce or open/);
    expect(loadConfig({ BROKER_AUTH: "open" }).brokerAuth).toBe("open");
  });

  it("answers without a credential on loopback, as before", async () => {
    const t = await startTestApp({ BROKER_AUTH: "open" });
    try {
      expect((await t.app.inject({ method: "GET", url: "/ngsi-ld/v1/types" })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
