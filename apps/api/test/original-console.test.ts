import { describe, expect, it } from "vitest";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// The spec's client, the original console, against this API: the calls it makes as it makes them
// (notes/original-app.md), and the error shape it reads (`{title, details}`, details shown as a
// JSON tree under the title).

const ctx = useEmbeddedWorkspace();

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe(`the original console's calls (${driver})`, () => {
  it("creates and edits a thing description with its positionInChart, a spec field it always sends", async () => {
    const created = await ctx.api("POST", `${ctx.path}/wot-thing-descriptions`, {
      name: "Building",
      positionInChart: [],
      hasType: ctx.types.Building,
      hasWorkspace: ctx.workspace.id,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, ...read } = created.body;
    const edited = await ctx.api("PUT", `${ctx.path}/wot-thing-descriptions/${id}`, {
      ...read,
      description: "The headquarters",
      positionInChart: [],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ name: "Building", description: "The headquarters" });
    // Only the server would set it: what a client sends is not kept.
    const moved = await ctx.api("PUT", `${ctx.path}/wot-thing-descriptions/${id}`, {
      ...read,
      positionInChart: [10, 20],
    });
    expect(moved.status).toBe(200);
    expect(moved.body).not.toHaveProperty("positionInChart");
  });

  it("deletes a data service, then each of the links it had listed: every deletion succeeds", async () => {
    const actions = await Promise.all(
      ["GET", "PATCH"].map((name) => ok("POST", "/api/data-actions", { name: `${name} ${driver} links` })),
    );
    // The original's form: the service, then its links one call at a time.
    const service = await ok("POST", `${ctx.path}/data-services`, {
      hasEntityType: ctx.types.Building,
      isOffer: true,
      hasWorkspace: ctx.workspace.id,
    });
    const links = [
      ...(
        await Promise.all(
          actions.map((action) =>
            ok("POST", `${ctx.path}/data-service-actions`, {
              hasDataService: service.id,
              hasDataAction: action.id,
              hasWorkspace: ctx.workspace.id,
            }),
          ),
        )
      ).map((link) => `data-service-actions/${link.id}`),
      `data-service-properties/${
        (
          await ok("POST", `${ctx.path}/data-service-properties`, {
            hasDataService: service.id,
            hasProperty: ctx.properties["Building.floors"],
            hasWorkspace: ctx.workspace.id,
          })
        ).id
      }`,
    ];
    expect((await ctx.api("DELETE", `${ctx.path}/data-services/${service.id}`)).status).toBe(204);
    for (const link of links) {
      const res = await ctx.api("DELETE", `${ctx.path}/${link}`);
      expect(res.status, `${link}: ${JSON.stringify(res.body)}`).toBe(204);
    }
    // Still 404: a data service, a workspace or a link id that never named anything.
    expect((await ctx.api("DELETE", `${ctx.path}/data-services/${service.id}`)).status).toBe(404);
    expect((await ctx.api("DELETE", `/api/workspace/urn:ngsi-ld:Workspace:none/${links[0]}`)).status).toBe(
      404,
    );
    expect((await ctx.api("DELETE", `${ctx.path}/data-service-actions/urn:ngsi-ld:Nope:1`)).status).toBe(404);
  });
});

describe(`the errors the original console shows (${driver})`, () => {
  it("carry `details`: the field errors, one sentence each, or the detail, in the reader's language", async () => {
    const invalid = await ctx.api("POST", "/api/context-brokers", { name: "Broker", port: 70_000 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.title).toBe("The submitted data is invalid");
    // One sentence per field error, each with its field and message, as the detail joins them.
    const errors = invalid.body.errors as Array<{ path: string; message: string }>;
    expect(errors.map((e) => e.path)).toEqual(expect.arrayContaining(["scheme", "host", "port"]));
    expect(invalid.body.details).toHaveLength(errors.length);
    errors.forEach((e, i) => expect(invalid.body.details[i]).toContain(e.message));
    expect(invalid.body.details.join("; ")).toBe(invalid.body.detail);

    const missing = await ctx.api("GET", "/api/context-brokers/urn:ngsi-ld:ContextBroker:none", undefined, {
      "accept-language": "fr",
    });
    expect(missing.status).toBe(404);
    expect(missing.body.details).toEqual([missing.body.detail]);
    expect(missing.body.details[0]).toContain("urn:ngsi-ld:ContextBroker:none");
    expect(missing.body.code).toBe("notFound.record");
  });

  it("are described with `details` in the OpenAPI document", async () => {
    const doc = (await ctx.api("GET", "/api/docs/json")).body;
    const refused =
      doc.paths["/api/context-brokers"].post.responses["400"].content["application/json"].schema;
    expect(refused.properties).toMatchObject({
      detail: { type: "string" },
      details: { type: "array", items: { type: "string" } },
      errors: { type: "array" },
    });
  });

  it("name the real limit of a body too large", async () => {
    const limit = 5 * 1024 * 1024;
    const res = await ctx.t.app.inject({
      method: "POST",
      url: "/api/data-actions",
      headers: {
        authorization: `Bearer ${await ctx.t.tokenFor("admin")}`,
        "content-type": "application/json",
        "accept-language": "fr",
      },
      payload: JSON.stringify({ name: "big", description: "x".repeat(limit) }),
    });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      code: "request.tooLarge",
      params: { limit },
      detail: `Le corps dépasse la limite de ${limit} octets.`,
    });
  });
});
