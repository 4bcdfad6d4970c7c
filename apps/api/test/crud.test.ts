import { describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { client, driver, useTestApp } from "./support/harness.ts";
import { createSample, samplePayload } from "../../../test/samples/platform.ts";

const ctx = useTestApp();
const api: ReturnType<typeof client> = (...args) => ctx.api(...args);

describe(`CRUD of every platform kind (${driver})`, () => {
  it.each(platformKinds.map((k) => [k.kind, k] as const))(
    "%s: create, show, list, update, delete",
    async (_name, kind) => {
      const created = await createSample(api, kind, platformKinds);
      expect(created.id).toMatch(new RegExp(`^urn:ngsi-ld:${kind.urnType}:[0-9a-f-]{36}$`));

      const shown = await api("GET", `/api/${kind.kind}/${created.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(created);
      expect(shown.headers.etag).toBe('"1"');

      const listed = await api("GET", `/api/${kind.kind}`);
      expect(listed.body.map((i: { id: string }) => i.id)).toContain(created.id);

      const { id: _id, ...rest } = created;
      const writable = Object.fromEntries(
        Object.entries(rest).filter(([, v]) => !(v && typeof v === "object" && "set" in (v as object))),
      );
      const updated = await api("PUT", `/api/${kind.kind}/${created.id}`, {
        ...writable,
        name: `${created.name} renamed`,
        description: "now described",
      });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body).toMatchObject({
        id: created.id,
        name: `${created.name} renamed`,
        description: "now described",
      });
      expect(updated.headers.etag).toBe('"2"');

      if (kind.kind !== "services") {
        const deleted = await api("DELETE", `/api/${kind.kind}/${created.id}`);
        expect(deleted.status).toBe(204);
        expect((await api("GET", `/api/${kind.kind}/${created.id}`)).status).toBe(404);
      }
    },
  );

  it("answers 404 problem+json for an unknown id, on show, update and delete", async () => {
    const missing = "urn:ngsi-ld:ContextBroker:00000000-0000-4000-8000-000000000000";
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await api(
        method,
        `/api/context-brokers/${missing}`,
        method === "PUT" ? samplePayload("context-brokers", () => "") : undefined,
      );
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 404, title: "Not found" });
    }
  });

  it("lists by name case-insensitively", async () => {
    for (const name of ["beta", "Alpha", "gamma", "Delta"]) {
      await api("POST", "/api/trusted-issuers-lists", {
        ...samplePayload("trusted-issuers-lists", () => ""),
        name,
      });
    }
    const names = (await api("GET", "/api/trusted-issuers-lists")).body.map((i: { name: string }) => i.name);
    expect(names).toEqual(["Alpha", "beta", "Delta", "gamma"]);
  });

  it("drops empty description, path and userPath, and ignores a client id", async () => {
    const res = await api("POST", "/api/identity-managers", {
      ...samplePayload("identity-managers", () => ""),
      id: "urn:ngsi-ld:IdentityManager:mine",
      description: "",
      path: "",
      userPath: "",
    });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe("urn:ngsi-ld:IdentityManager:mine");
    expect(Object.keys(res.body)).not.toEqual(expect.arrayContaining(["description"]));
    expect(res.body).not.toHaveProperty("path");
    expect(res.body).not.toHaveProperty("userPath");
    expect(res.headers.location).toBe(`/api/identity-managers/${res.body.id}`);
  });

  it("keeps the temporal service type after creation", async () => {
    const created = (
      await api("POST", "/api/temporal-services", { name: "History", temporalServiceType: "ngsi-ld" })
    ).body;
    const res = await api(
      "PUT",
      `/api/temporal-services/${created.id}`,
      samplePayload("temporal-services", () => ""),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: "temporalServiceType", message: "cannot be changed after creation", code: "field.createOnly" },
    ]);
  });

  it("answers the health check with the storage driver and version", async () => {
    const res = await client(ctx.t)("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.storage.driver).toBe(driver);
    expect(res.body.storage.version).toMatch(/^\d+/);
  });
});
