import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isShowroom, kindsByName, platformKinds } from "@orrery/model";
import { freePort, navigate, submit } from "../../../test/fakes/browser.ts";
import { createSample, createWorkspace } from "../../../test/samples/platform.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";
import { issued } from "./support/login.ts";

// The showroom user, signed in over HTTP through the development identity manager, reads what the
// console loads at sign-in (spec, platform console section 7), so that its pages are not blank,
// and nothing more: no record page of the platform, no user of a workspace, no write.

/** "At login the product fetches": the eleven lists, in the spec's order. */
const signInLists = [
  "identity-manager-grants",
  "identity-managers",
  "vc-verifiers",
  "trusted-issuers-lists",
  "context-brokers",
  "services",
  "temporal-services",
  "workspaces",
  "authorization-registry-grants",
  "authorization-registries",
  "data-actions",
];

let t: TestApp;
let base: string;
const created = new Map<string, string>();
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: base });
  await t.app.listen({ port, host: "127.0.0.1" });
  const admin = client(t, await t.tokenFor("admin"));
  for (const kind of signInLists.filter((k) => k !== "workspaces")) {
    const definition = platformKinds.find((k) => k.kind === kind)!;
    if (!created.has(kind))
      created.set(kind, (await createSample(admin, definition, platformKinds, 1, created)).id);
  }
  created.set("workspaces", (await createWorkspace(admin, platformKinds)).workspace.id);
});
afterAll(() => t?.close());

describe(`the showroom user (${driver})`, () => {
  it("signs in in showroom mode and reads each list the console loads at sign-in, secrets kept", async () => {
    const page = await navigate(`${base}/api/auth/login`);
    const { token } = issued(await submit(page, { username: "showroom", password: "showroom" }));
    const api = client(t, token);
    const permissions = (await api("GET", "/api/authorization/permissions")).body;
    // The spec's marker: a GET permission on the literal path /showroom, as the original console reads it.
    expect(permissions).toContainEqual({ action: "GET", resource: "/showroom", exact: true });
    expect(isShowroom(permissions)).toBe(true);

    for (const kind of signInLists) {
      const list = await api("GET", `/api/${kind}`);
      expect(list.status, `${kind} ${JSON.stringify(list.body)}`).toBe(200);
      const secrets = kindsByName.get(kind)!.fields.filter((f) => f.secret);
      for (const item of list.body as Array<Record<string, unknown>>)
        for (const field of secrets)
          if (item[field.name] !== undefined)
            expect(item[field.name], `${kind} ${field.name}`).toEqual({ set: true });
    }
    const grants = (await api("GET", "/api/identity-manager-grants")).body;
    expect(grants.find((g: { id: string }) => g.id === created.get("identity-manager-grants"))).toMatchObject(
      {
        clientSecret: { set: true },
        password: { set: true },
      },
    );
    expect(JSON.stringify(grants)).not.toContain("p4ssw0rd");

    // No record page of the platform, no workspace's users (personal data), no write.
    const grant = created.get("identity-manager-grants")!;
    expect((await api("GET", `/api/identity-manager-grants/${grant}`)).status).toBe(403);
    const workspace = created.get("workspaces")!;
    expect((await api("GET", `/api/workspaces/${workspace}`)).status).toBe(200);
    expect((await api("GET", `/api/workspace/${workspace}/users`)).status).toBe(403);
    expect((await api("GET", `/api/workspace/${workspace}/types`)).status).toBe(200);
    expect((await api("POST", "/api/data-actions", { name: "GET" })).status).toBe(403);
    expect((await api("PUT", `/api/workspaces/${workspace}`, {})).status).toBe(403);
    expect((await api("DELETE", `/api/context-brokers/${created.get("context-brokers")}`)).status).toBe(403);
  });
});
