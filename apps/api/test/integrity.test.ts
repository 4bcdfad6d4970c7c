import { describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { client, driver, useTestApp } from "./support/harness.ts";
import { createSample, samplePayload } from "../../../test/samples/platform.ts";

const ctx = useTestApp();
const api: ReturnType<typeof client> = (...args) => ctx.api(...args);

describe(`concurrent edits and references (${driver})`, () => {
  it("refuses an update with a stale If-Match with 412, and accepts the current one", async () => {
    const created = await api(
      "POST",
      "/api/context-brokers",
      samplePayload("context-brokers", () => ""),
    );
    expect(created.headers.etag).toBe('"1"');
    const body = samplePayload("context-brokers", () => "");
    const first = await api(
      "PUT",
      `/api/context-brokers/${created.body.id}`,
      { ...body, name: "First" },
      { "if-match": '"1"' },
    );
    expect(first.status).toBe(200);
    const second = await api(
      "PUT",
      `/api/context-brokers/${created.body.id}`,
      { ...body, name: "Second" },
      { "if-match": '"1"' },
    );
    expect(second.status).toBe(412);
    expect(second.body).toMatchObject({ status: 412, currentETag: '"2"' });
    expect((await api("GET", `/api/context-brokers/${created.body.id}`)).body.name).toBe("First");
    expect(
      (
        await api(
          "PUT",
          `/api/context-brokers/${created.body.id}`,
          { ...body, name: "Third" },
          { "if-match": '"2"' },
        )
      ).status,
    ).toBe(200);
  });

  it("refuses to delete a record that others refer to, naming them, and deletes it once they are gone", async () => {
    const service = await createSample(
      api,
      platformKinds.find((k) => k.kind === "services")!,
      platformKinds,
    );
    for (const [kind, field] of [
      ["context-brokers", "hasContextBroker"],
      ["identity-managers", "hasIdentityManager"],
      ["identity-manager-grants", "hasIdentityManagerGrant"],
    ]) {
      const res = await api("DELETE", `/api/${kind}/${service[field!]}`);
      expect(res.status, kind).toBe(409);
      expect(res.body.detail).toContain(`“${service.name}”`);
      expect(res.body.referrers).toEqual([
        // The grant names the identity manager it was made for, too.
        ...(kind === "identity-managers"
          ? [
              expect.objectContaining({
                id: service.hasIdentityManagerGrant,
                kind: "identity-manager-grants",
              }),
            ]
          : []),
        expect.objectContaining({ id: service.id, kind: "services", name: service.name }),
      ]);
    }
    expect((await api("DELETE", `/api/services/${service.id}`)).status).toBe(204);
    expect((await api("DELETE", `/api/context-brokers/${service.hasContextBroker}`)).status).toBe(204);
  });

  it("refuses to delete an identity manager used by a mintaka temporal service", async () => {
    const idm = (
      await api(
        "POST",
        "/api/identity-managers",
        samplePayload("identity-managers", () => ""),
      )
    ).body;
    const grant = (
      await api(
        "POST",
        "/api/identity-manager-grants",
        samplePayload("identity-manager-grants", () => idm.id),
      )
    ).body;
    const mintaka = await api("POST", "/api/temporal-services", {
      ...samplePayload("temporal-services", () => ""),
      authorizationRequired: true,
      hasIdentityManager: idm.id,
      hasIdentityManagerGrant: grant.id,
    });
    expect(mintaka.status).toBe(201);
    expect((await api("DELETE", `/api/identity-managers/${idm.id}`)).status).toBe(409);
  });
});
