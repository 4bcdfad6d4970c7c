import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kindsByName, platformKinds } from "@orrery/model";
import { createSample } from "../../../test/samples/platform.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

// A public demo shows no personal data (issue 25): an identity manager grant's user name (the
// account the console signs in with) is read only by those who may change the grant.

let t: TestApp;
let admin: ReturnType<typeof client>;
let grantId = "";
beforeAll(async () => {
  t = await startTestApp();
  admin = client(t, await t.tokenFor("admin"));
  const idm = { body: await createSample(admin, kindsByName.get("identity-managers")!, platformKinds) };
  const grant = await admin("POST", "/api/identity-manager-grants", {
    name: "Console account",
    hasIdentityManager: idm.body.id,
    grantType: "password",
    clientId: "console",
    clientSecret: "s3cret",
    username: "alice@example.org",
    password: "pa55",
  });
  expect(grant.status, JSON.stringify(grant.body)).toBe(201);
  grantId = grant.body.id;
});
afterAll(() => t?.close());

describe(`personal data of grants (${driver})`, () => {
  it("sends a grant's user name to whoever may change it", async () => {
    expect((await admin("GET", `/api/identity-manager-grants/${grantId}`)).body.username).toBe(
      "alice@example.org",
    );
    const listed = (await admin("GET", "/api/identity-manager-grants")).body;
    expect(listed.find((g: { id: string }) => g.id === grantId).username).toBe("alice@example.org");
  });

  it.each(["showroom", "viewer"])("keeps it from %s, who only reads", async (role) => {
    const reader = client(t, await t.tokenFor(role));
    const listed = await reader("GET", "/api/identity-manager-grants");
    expect(listed.status).toBe(200);
    const grant = listed.body.find((g: { id: string }) => g.id === grantId);
    expect(grant).toMatchObject({ name: "Console account", grantType: "password" });
    expect(grant).not.toHaveProperty("username");
    expect(listed.raw).not.toContain("alice@example.org");
    if (role === "viewer") {
      const shown = await reader("GET", `/api/identity-manager-grants/${grantId}`);
      expect(shown.status).toBe(200);
      expect(shown.raw).not.toContain("alice@example.org");
    }
  });
});
