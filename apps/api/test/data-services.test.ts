import { beforeAll, describe, expect, it } from "vitest";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// Data services, their offers, roles and accesses (spec workspace-console sections 2, 3 and 4).

const ctx = useEmbeddedWorkspace();
const actions: Record<string, string> = {};

beforeAll(async () => {
  for (const name of ["GET", "PATCH", "POST:Notification"]) {
    const res = await ctx.api("POST", "/api/data-actions", { name: `${name} ${driver}` });
    actions[name] = res.body.id;
  }
});

const service = (extra: Record<string, unknown> = {}) => ({
  name: "Building data",
  hasEntityType: ctx.types.Building,
  hasProperties: [ctx.properties["Building.name"], ctx.properties["Building.floors"]],
  hasDataActions: [actions.GET, actions.PATCH],
  isOffer: true,
  ...extra,
});

const role = (extra: Record<string, unknown> = {}) => ({
  name: "Maintainer",
  notBefore: 1_767_225_600,
  notOnOrAfter: 1_798_761_600,
  dataServiceProviderId: "did:web:provider.example.org",
  verifiableCredentialType: "MaintenanceCredential",
  ...extra,
});

describe(`data services (${driver})`, () => {
  it("are created with their properties and actions in one request, and read back with them", async () => {
    const created = await ctx.api("POST", `${ctx.path}/data-services`, service());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ ...service(), isDemand: false, hasWorkspace: ctx.workspace.id });
    const read = await ctx.api("GET", `${ctx.path}/data-services/${created.body.id}`);
    expect(read.body).toEqual(created.body);
    // Edited links are replaced as a whole, in the same request.
    const edited = await ctx.api("PUT", `${ctx.path}/data-services/${created.body.id}`, {
      ...read.body,
      hasProperties: [ctx.properties["Building.open"]],
      hasDataActions: [actions.GET],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      hasProperties: [ctx.properties["Building.open"]],
      hasDataActions: [actions.GET],
    });
  });

  it("refuse properties of another type than the service's, and store nothing", async () => {
    const before = (await ctx.api("GET", `${ctx.path}/data-services`)).body.length;
    const res = await ctx.api(
      "POST",
      `${ctx.path}/data-services`,
      service({ hasProperties: [ctx.properties["Building.name"], ctx.properties["Person.name"]] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        path: "hasProperties.1",
        code: "field.ofAnother",
        params: { name: "name", owner: "Person", field: "hasEntityType" },
      }),
    ]);
    expect((await ctx.api("GET", `${ctx.path}/data-services`)).body.length).toBe(before);
    const noType = await ctx.api("POST", `${ctx.path}/data-services`, service({ hasEntityType: undefined }));
    expect(noType.status).toBe(400);
    expect(noType.body.errors.map((e: { path: string }) => e.path)).toContain("hasEntityType");
  });

  it("take links one call at a time from clients that make them so, as views of the service", async () => {
    const bare = await ctx.api("POST", `${ctx.path}/data-services`, {
      hasEntityType: ctx.types.Building,
      isDemand: true,
    });
    expect(bare.status).toBe(201);
    expect(bare.body.name).toBeUndefined();
    const id = bare.body.id;
    const action = await ctx.api("POST", `${ctx.path}/data-service-actions`, {
      hasDataService: id,
      hasDataAction: actions.GET,
      hasWorkspace: ctx.workspace.id,
    });
    expect(action.status, JSON.stringify(action.body)).toBe(201);
    expect(action.body).toMatchObject({ hasDataService: id, hasDataAction: actions.GET });
    const property = await ctx.api("POST", `${ctx.path}/data-service-properties`, {
      hasDataService: id,
      hasProperty: ctx.properties["Building.floors"],
    });
    expect(property.status).toBe(201);
    expect((await ctx.api("GET", `${ctx.path}/data-services/${id}`)).body).toMatchObject({
      hasDataActions: [actions.GET],
      hasProperties: [ctx.properties["Building.floors"]],
    });
    // A client's update that leaves the links out keeps them.
    const renamed = await ctx.api("PUT", `${ctx.path}/data-services/${id}`, {
      name: "Named later",
      hasEntityType: ctx.types.Building,
      isDemand: true,
    });
    expect(renamed.body.hasDataActions).toEqual([actions.GET]);
    expect((await ctx.api("GET", `${ctx.path}/data-service-actions/${action.body.id}`)).body).toEqual(
      action.body,
    );
    expect((await ctx.api("GET", `${ctx.path}/data-service-actions`)).body).toContainEqual(action.body);
    const twice = await ctx.api("POST", `${ctx.path}/data-service-actions`, {
      hasDataService: id,
      hasDataAction: actions.GET,
    });
    expect(twice.status).toBe(409);
    const wrongType = await ctx.api("POST", `${ctx.path}/data-service-properties`, {
      hasDataService: id,
      hasProperty: ctx.properties["Person.name"],
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0]).toMatchObject({ path: "hasProperty", code: "field.ofAnother" });
    expect((await ctx.api("DELETE", `${ctx.path}/data-service-actions/${action.body.id}`)).status).toBe(204);
    expect((await ctx.api("GET", `${ctx.path}/data-services/${id}`)).body.hasDataActions).toEqual([]);
    // A link already gone is done (the original console unlinks after the service is deleted).
    expect((await ctx.api("DELETE", `${ctx.path}/data-service-actions/${action.body.id}`)).status).toBe(204);
    expect((await ctx.api("DELETE", `${ctx.path}/data-service-actions/urn:ngsi-ld:Nope:1`)).status).toBe(404);
    expect((await ctx.api("GET", `${ctx.path}/data-service-properties/urn:ngsi-ld:Nope:1`)).status).toBe(404);
  });

  it("keep what they use: a linked property, the type and a linked action cannot be deleted", async () => {
    const { body } = await ctx.api("POST", `${ctx.path}/data-services`, service({ name: "Keeper" }));
    const property = await ctx.api("DELETE", `${ctx.path}/properties/${ctx.properties["Building.name"]}`);
    expect(property.status).toBe(409);
    expect(property.body.referrers).toContainEqual(expect.objectContaining({ id: body.id }));
    expect((await ctx.api("DELETE", `/api/data-actions/${actions.PATCH}`)).status).toBe(409);
    expect((await ctx.api("DELETE", `${ctx.path}/types/${ctx.types.Building}`)).status).toBe(409);
  });
});

describe(`offers, roles and accesses (${driver})`, () => {
  it("offers need a description and a valid URL; a service with offers or accesses is not deleted", async () => {
    const svc = (await ctx.api("POST", `${ctx.path}/data-services`, service({ name: "Offered" }))).body;
    const bad = await ctx.api("POST", `${ctx.path}/data-service-offers`, {
      hasDataService: svc.id,
      url: "not a url",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["description", "url"]);
    const offer = await ctx.api("POST", `${ctx.path}/data-service-offers`, {
      hasDataService: svc.id,
      description: "On the marketplace",
      url: "https://market.example.org/offers/1",
    });
    expect(offer.status).toBe(201);
    const refused = await ctx.api("DELETE", `${ctx.path}/data-services/${svc.id}`);
    expect(refused.status).toBe(409);
    // Each named with what the console needs to link it: its workspace and the records it sits under.
    expect(refused.body.referrers).toEqual([
      {
        id: offer.body.id,
        kind: "data-service-offers",
        // An offer has no name: it goes by its description, as the console titles it.
        name: "On the marketplace",
        workspaceId: ctx.workspace.id,
        refs: { hasDataService: svc.id },
      },
    ]);
    await ctx.api("DELETE", `${ctx.path}/data-service-offers/${offer.body.id}`);
    expect((await ctx.api("DELETE", `${ctx.path}/data-services/${svc.id}`)).status).toBe(204);
    // Its links went with it.
    expect(
      (
        (await ctx.api("GET", `${ctx.path}/data-service-actions`)).body as Array<{ hasDataService: string }>
      ).some((l) => l.hasDataService === svc.id),
    ).toBe(false);
  });

  it("roles start unsynchronised, end after they begin, and their accesses carry their roleName", async () => {
    const backwards = await ctx.api("POST", `${ctx.path}/roles`, role({ notOnOrAfter: 1_767_225_600 }));
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0]).toMatchObject({ path: "notOnOrAfter", code: "field.afterField" });
    const fractional = await ctx.api("POST", `${ctx.path}/roles`, role({ notBefore: 1.5 }));
    expect(fractional.status).toBe(400);
    const created = await ctx.api(
      "POST",
      `${ctx.path}/roles`,
      role({ synchronized: true, synchronizationTime: 5, lastDelegationEvidence: { forged: true } }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      synchronized: false,
      synchronizationTime: 0,
      lastDelegationEvidence: null,
    });
    const svc = (await ctx.api("POST", `${ctx.path}/data-services`, service({ name: "Accessed" }))).body;
    const noService = await ctx.api("POST", `${ctx.path}/data-service-accesses`, {
      hasRole: created.body.id,
    });
    expect(noService.status).toBe(400);
    expect(noService.body.errors[0].path).toBe("hasDataService");
    const access = await ctx.api("POST", `${ctx.path}/data-service-accesses`, {
      hasRole: created.body.id,
      hasDataService: svc.id,
      roleName: "forged",
    });
    expect(access.status).toBe(201);
    expect(access.body.roleName).toBe("Maintainer");
    // The access subject follows the role's roleName, not its display name.
    await ctx.api("PUT", `${ctx.path}/roles/${created.body.id}`, { ...created.body, name: "Caretaker" });
    expect((await ctx.api("GET", `${ctx.path}/data-service-accesses/${access.body.id}`)).body.roleName).toBe(
      "Maintainer",
    );
    await ctx.api("PUT", `${ctx.path}/roles/${created.body.id}`, { ...created.body, roleName: "Caretaker" });
    expect((await ctx.api("GET", `${ctx.path}/data-service-accesses/${access.body.id}`)).body.roleName).toBe(
      "Caretaker",
    );
    const roleDelete = await ctx.api("DELETE", `${ctx.path}/roles/${created.body.id}`);
    expect(roleDelete.status).toBe(409);
    expect((await ctx.api("DELETE", `${ctx.path}/data-services/${svc.id}`)).status).toBe(409);
  });

  it("are refused to a viewer, who may still read them", async () => {
    const viewer = await ctx.t.tokenFor("viewer");
    const res = await ctx.t.app.inject({
      method: "POST",
      url: `${ctx.path}/roles`,
      headers: { authorization: `Bearer ${viewer}` },
      payload: role({ name: "Sneaky" }),
    });
    expect(res.statusCode).toBe(403);
    const list = await ctx.t.app.inject({
      method: "GET",
      url: `${ctx.path}/roles`,
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(list.statusCode).toBe(200);
  });
});
