import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { samplePayload, sampleSecrets } from "../../../test/samples/platform.ts";

let t: TestApp;
let api: ReturnType<typeof client>;
const bodies: string[] = [];
beforeAll(async () => {
  t = await startTestApp();
  const call = client(t, await t.tokenFor("admin"));
  api = async (...args: Parameters<typeof call>) => {
    const res = await call(...args);
    bodies.push(res.raw);
    return res;
  };
  // The peers the grants are made for.
  for (const kind of ["identity-managers", "authorization-registries"])
    peers[kind] = (await api("POST", `/api/${kind}`, samplePayload(kind, none))).body.id;
});
afterAll(() => t.close());

const none = () => "";
const peers: Record<string, string> = {};
const peer = (kind: string) => peers[kind] ?? "";

describe(`secrets are write-only and encrypted at rest (${driver})`, () => {
  it("shows { set: true } instead of the secret, on create, show, list and update", async () => {
    const grant = await api(
      "POST",
      "/api/identity-manager-grants",
      samplePayload("identity-manager-grants", peer),
    );
    expect(grant.body).toMatchObject({
      clientSecret: { set: true },
      password: { set: true },
      username: "alice@example.org",
    });
    await api("GET", `/api/identity-manager-grants/${grant.body.id}`);
    await api("GET", "/api/identity-manager-grants");
    const key = await api(
      "POST",
      "/api/authorization-registry-grants",
      samplePayload("authorization-registry-grants", peer),
    );
    expect(key.body.privateKey).toEqual({ set: true });
    await api("GET", `/api/authorization-registry-grants/${key.body.id}`);
  });

  it("keeps the stored secret when an update leaves it out, and replaces it when given", async () => {
    const created = (
      await api("POST", "/api/identity-manager-grants", samplePayload("identity-manager-grants", peer))
    ).body;
    const { clientSecret: _c, password: _p, ...rest } = samplePayload("identity-manager-grants", peer);
    const kept = await api("PUT", `/api/identity-manager-grants/${created.id}`, { ...rest, name: "Renamed" });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ clientSecret: { set: true }, password: { set: true } });
    expect(
      await t.records.secret(
        (await import("@orrery/model")).identityManagerGrants,
        created.id,
        "clientSecret",
      ),
    ).toBe("s3cr3t-client");

    await api("PUT", `/api/identity-manager-grants/${created.id}`, {
      ...rest,
      clientSecret: "rotated-secret",
    });
    expect(
      await t.records.secret(
        (await import("@orrery/model")).identityManagerGrants,
        created.id,
        "clientSecret",
      ),
    ).toBe("rotated-secret");
  });

  it("takes a record back as it was read (secrets as { set: true } or null): the stored secrets stay", async () => {
    const { identityManagerGrants } = await import("@orrery/model");
    const created = (
      await api("POST", "/api/identity-manager-grants", samplePayload("identity-manager-grants", peer))
    ).body;
    const read = (await api("GET", `/api/identity-manager-grants/${created.id}`)).body;
    const unchanged = await api("PUT", `/api/identity-manager-grants/${created.id}`, read);
    expect(unchanged.status, JSON.stringify(unchanged.body)).toBe(200);
    expect(unchanged.body).toEqual(read);
    const nulls = await api("PUT", `/api/identity-manager-grants/${created.id}`, {
      ...read,
      clientSecret: null,
      password: null,
    });
    expect(nulls.status).toBe(200);
    expect(await t.records.secret(identityManagerGrants, created.id, "clientSecret")).toBe("s3cr3t-client");
    expect(await t.records.secret(identityManagerGrants, created.id, "password")).toBe(
      samplePayload("identity-manager-grants", peer).password,
    );
    // A client that copies a record it read into a new one must still give the secrets.
    const { id: _id, ...copy } = read;
    const copied = await api("POST", "/api/identity-manager-grants", copy);
    expect(copied.status).toBe(400);
    expect(copied.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "clientSecret",
      "password",
    ]);
  });

  it("drops the password when the grant type leaves password, and then needs it again", async () => {
    const created = (
      await api("POST", "/api/identity-manager-grants", samplePayload("identity-manager-grants", peer))
    ).body;
    const base = { name: "G", hasIdentityManager: peers["identity-managers"], clientId: "c" };
    const switched = await api("PUT", `/api/identity-manager-grants/${created.id}`, {
      ...base,
      grantType: "client_credentials",
    });
    expect(switched.body).not.toHaveProperty("password");
    const back = await api("PUT", `/api/identity-manager-grants/${created.id}`, {
      ...base,
      grantType: "password",
      username: "bob",
    });
    expect(back.status).toBe(400);
    expect(back.body.errors).toEqual([{ path: "password", message: "is required", code: "field.required" }]);
  });

  it("stores secrets encrypted: no plain secret in the database", async () => {
    const rows = await t.storage.db.execute(
      sql`SELECT data::text AS data, secrets::text AS secrets FROM records`,
    );
    const dump = JSON.stringify((rows as unknown as { rows: unknown[] }).rows);
    expect(dump).toContain("v1.");
    for (const secret of sampleSecrets) expect(dump).not.toContain(secret);
  });

  it("never puts a secret or a token in a response body or a log line", async () => {
    const token = await t.tokenFor("admin");
    await client(t, token)("GET", "/api/identity-manager-grants");
    expect(bodies.length).toBeGreaterThan(5);
    for (const secret of [...sampleSecrets, "rotated-secret"]) {
      for (const body of bodies) expect(body).not.toContain(secret);
    }
    const logs = t.logs.join("");
    expect(logs).toContain("incoming request");
    for (const secret of [...sampleSecrets, "rotated-secret", token]) expect(logs).not.toContain(secret);
  });
});
