import { beforeAll, describe, expect, it } from "vitest";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// An edit that would leave records relying on the edited one invalid is refused with a 409 naming
// them (kind, id, title), as a delete of a record in use is; what a dependent copies from the record
// (an event's capacity type) is carried along in the same update.

const ctx = useEmbeddedWorkspace();
const ids: Record<string, string> = {};
const ALL_YEAR = { notBefore: 1_767_225_600, notOnOrAfter: 1_798_761_600 };

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The record as an update takes it back: what it has, without id and workspace. */
async function editable(kind: string, id: string) {
  const { id: _id, hasWorkspace: _ws, ...fields } = await ok("GET", `${ctx.path}/${kind}/${id}`);
  return fields as Record<string, unknown>;
}

/** PUT of the record with these fields changed. */
async function change(kind: string, id: string, fields: Record<string, unknown>, headers = {}) {
  return ctx.api("PUT", `${ctx.path}/${kind}/${id}`, { ...(await editable(kind, id)), ...fields }, headers);
}

/** The records a 409 names: kind and title, by id. */
const named = (body: { referrers?: Array<{ id: string; kind: string; name: string }> }) =>
  Object.fromEntries((body.referrers ?? []).map((r) => [r.id, `${r.kind} ${r.name}`]));

beforeAll(async () => {
  const { path, types, properties } = ctx;
  ids.td = (
    await ok("POST", `${path}/wot-thing-descriptions`, { name: "Depot", hasType: types.Building })
  ).id;
  ids.personTd = (
    await ok("POST", `${path}/wot-thing-descriptions`, { name: "Visitor", hasType: types.Person })
  ).id;
  ids.floors = (
    await ok("POST", `${path}/wot-properties`, {
      name: "storeys",
      hasProperty: properties["Building.floors"],
      capacityType: "Range",
      capacityValue: "[0, 50]",
      hasWoTThingDescription: ids.td,
    })
  ).id;
  ids.action = (
    await ok("POST", `${path}/wot-actions`, { name: "extend", hasWoTThingDescription: ids.td })
  ).id;
  // Named after the property: it writes the WoT property "storeys", within [0, 50].
  ids.input = (
    await ok("POST", `${path}/wot-action-input-properties`, {
      name: "floors",
      propertyType: "number",
      hasWoTAction: ids.action,
      hasWoTThingDescription: ids.td,
    })
  ).id;
  ids.notification = (await ok("POST", "/api/data-actions", { name: `PATCH:Notification ${driver}` })).id;
  ids.read = (await ok("POST", "/api/data-actions", { name: `GET dependents ${driver}` })).id;
  ids.service = (
    await ok("POST", `${path}/data-services`, {
      name: "Depot changes",
      hasEntityType: types.Building,
      hasProperties: [properties["Building.floors"], properties["Building.open"]],
      hasDataActions: [ids.notification],
    })
  ).id;
  ids.event = (
    await ok("POST", `${path}/wot-events`, {
      name: "grown",
      hasDataService: ids.service,
      hasWoTProperty: ids.floors,
      capacityValue: "[0, 50]",
      hasWoTThingDescription: ids.td,
    })
  ).id;
  ids.routing = (
    await ok("POST", `${path}/routings`, { name: "weekend", hasWoTThingDescription: ids.td })
  ).id;
  ids.operation = (
    await ok("POST", `${path}/routing-operations`, {
      sequenceNumber: 1,
      timerBefore: 0,
      timerAfter: 10,
      hasWoTAction: ids.action,
      hasRouting: ids.routing,
    })
  ).id;
  ids.control = (
    await ok("POST", `${path}/routing-operation-controls`, {
      hasWoTProperty: ids.floors,
      woTPropertyValue: "3",
      hasRoutingOperation: ids.operation,
    })
  ).id;
});

describe(`edits under records that rely on them (${driver})`, () => {
  it("refuses a thing description's new type while its WoT properties name the old type's attributes, naming them", async () => {
    const moved = await change("wot-thing-descriptions", ids.td, { hasType: ctx.types.Person });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({
      code: "record.dependents",
      detail: "The change of its “Type” would break these records that go with it: “storeys”.",
    });
    expect(moved.body.referrers).toEqual([
      {
        id: ids.floors,
        kind: "wot-properties",
        name: "storeys",
        workspaceId: ctx.workspace.id,
        refs: expect.any(Object),
      },
    ]);
    const french = await change(
      "wot-thing-descriptions",
      ids.td,
      { hasType: ctx.types.Person },
      {
        "accept-language": "fr",
      },
    );
    expect(french.body.detail).toBe(
      "Le changement de son champ « Type » casserait ces enregistrements qui vont avec\u00a0: « storeys ».",
    );
    // The public thing description still advertises Buildings, whose property reads answer.
    expect((await ok("GET", `${ctx.path}/wot-thing-descriptions/${ids.td}`)).hasType).toBe(
      ctx.types.Building,
    );
    const td = await ctx.api("GET", `/wot-thing-descriptions/${ids.td}`);
    expect(Object.keys(td.body.properties)).toEqual(["storeys"]);
    // Renaming it, or retyping one without WoT properties, breaks nothing.
    expect((await change("wot-thing-descriptions", ids.td, { name: "Depot building" })).status).toBe(200);
    const empty = await ok("POST", `${ctx.path}/wot-thing-descriptions`, {
      name: "Blank",
      hasType: ctx.types.Building,
    });
    expect((await change("wot-thing-descriptions", empty.id, { hasType: ctx.types.Person })).status).toBe(
      200,
    );
  });

  it("refuses an input of a type, enum or bounds that no value within its WoT property's capacity fits", async () => {
    const retyped = await change("wot-action-input-properties", ids.input, { propertyType: "string" });
    expect(retyped.status).toBe(400);
    expect(retyped.body.errors).toEqual([
      expect.objectContaining({
        path: "propertyType",
        code: "wot.inputOutsideCapacity",
        message:
          'must let some value fit the capacity [0, 50] (Range) of the WoT property "storeys" that the input writes',
      }),
    ]);
    const enumOutside = await change("wot-action-input-properties", ids.input, { enum: [60, 70] });
    expect(enumOutside.body.errors?.[0]?.path).toBe("enum");
    const above = await change("wot-action-input-properties", ids.input, { minimum: 51 });
    expect(above.body.errors?.[0]?.path).toBe("minimum");
    const created = await ctx.api("POST", `${ctx.path}/wot-action-input-properties`, {
      name: "storeys",
      propertyType: "boolean",
      hasWoTAction: ids.action,
      hasWoTThingDescription: ids.td,
    });
    expect(created.status).toBe(400);
    expect((await editable("wot-action-input-properties", ids.input)).propertyType).toBe("number");
    expect((await change("wot-action-input-properties", ids.input, { minimum: 1, maximum: 50 })).status).toBe(
      200,
    );
  });

  it("refuses a capacity its inputs or events could no longer meet, and carries the new capacity type to the events that fit it", async () => {
    // Words cannot describe the number of floors the TD reads.
    const words = await change("wot-properties", ids.floors, {
      capacityType: "ListOfValues",
      capacityValue: '["low", "high"]',
    });
    expect(words.status).toBe(400);
    expect(words.body.errors[0]).toMatchObject({ path: "hasProperty", code: "wot.capacityOfProperty" });
    // A range above the input's maximum (50) and the control's value (3).
    const above = await change("wot-properties", ids.floors, { capacityValue: "[60, 70]" });
    expect(above.status).toBe(409);
    expect(named(above.body)).toEqual({
      [ids.input]: "wot-action-input-properties floors",
      [ids.control]: expect.stringMatching(/^routing-operation-controls /),
    });
    expect((await editable("wot-properties", ids.floors)).capacityType).toBe("Range");
    expect((await editable("wot-events", ids.event)).capacityType).toBe("Range");

    const listed = await change("wot-properties", ids.floors, {
      capacityType: "ListOfValues",
      capacityValue: "[1, 2, 3]",
    });
    expect(listed.status).toBe(200);
    // The event copies its WoT property's capacity type (spec): carried along, its value still a list.
    expect((await editable("wot-events", ids.event)).capacityType).toBe("ListOfValues");
    expect((await change("wot-events", ids.event, { capacityValue: "[2]" })).status).toBe(200);
    // "[2]" is no range: back to a Range would break the event.
    const ranged = await change("wot-properties", ids.floors, {
      capacityType: "Range",
      capacityValue: "[0, 50]",
    });
    expect(ranged.status).toBe(409);
    expect(named(ranged.body)).toEqual({ [ids.event]: "wot-events grown" });
    expect((await editable("wot-events", ids.event)).capacityType).toBe("ListOfValues");
  });

  it("refuses a data service's edit that leaves an event without its notification or its property, also link by link", async () => {
    const silent = await change("data-services", ids.service, { hasDataActions: [ids.read] });
    expect(silent.status).toBe(409);
    expect(silent.body.detail).toBe(
      "The change of its “Actions” would break these records that go with it: “grown”.",
    );
    expect(named(silent.body)).toEqual({ [ids.event]: "wot-events grown" });
    const narrowed = await change("data-services", ids.service, {
      hasProperties: [ctx.properties["Building.open"]],
    });
    expect(narrowed.status).toBe(409);
    const link = `urn:ngsi-ld:DataServiceProperty:${Buffer.from(`${ids.service} ${ctx.properties["Building.floors"]}`).toString("base64url")}`;
    const unlinked = await ctx.api("DELETE", `${ctx.path}/data-service-properties/${link}`);
    expect(unlinked.status).toBe(409);
    expect(named(unlinked.body)).toEqual({ [ids.event]: "wot-events grown" });
    expect((await editable("data-services", ids.service)).hasProperties).toHaveLength(2);
    // Another action added, or a property the event does not use dropped, breaks nothing.
    expect(
      (
        await change("data-services", ids.service, {
          hasProperties: [ctx.properties["Building.floors"]],
          hasDataActions: [ids.notification, ids.read],
        })
      ).status,
    ).toBe(200);
  });

  it("moves a data service to another type only with that type's properties, in one request", async () => {
    const service = await ok("POST", `${ctx.path}/data-services`, {
      name: "Visitors",
      hasEntityType: ctx.types.Building,
      hasProperties: [ctx.properties["Building.name"]],
      hasDataActions: [ids.read],
    });
    const kept = await change("data-services", service.id, { hasEntityType: ctx.types.Person });
    expect(kept.status).toBe(400);
    expect(kept.body.errors[0]).toMatchObject({ path: "hasProperties.0", code: "field.ofAnother" });
    const moved = await change("data-services", service.id, {
      hasEntityType: ctx.types.Person,
      hasProperties: [ctx.properties["Person.name"]],
    });
    expect(moved.status).toBe(200);
    expect(moved.body.hasProperties).toEqual([ctx.properties["Person.name"]]);
  });

  it("refuses moving an action, a routing or an operation to another thing description under the records that stay", async () => {
    const action = await change("wot-actions", ids.action, { hasWoTThingDescription: ids.personTd });
    expect(action.status).toBe(409);
    expect(named(action.body)).toEqual({
      [ids.input]: "wot-action-input-properties floors",
      [ids.operation]: "routing-operations 1. extend",
    });
    const routing = await change("routings", ids.routing, { hasWoTThingDescription: ids.personTd });
    expect(routing.status).toBe(409);
    expect(Object.keys(named(routing.body)).sort()).toEqual([ids.control, ids.operation].sort());
    // An operation moved, with its action, to a routing of another thing description: its control stays behind.
    const otherAction = await ok("POST", `${ctx.path}/wot-actions`, {
      name: "greet",
      hasWoTThingDescription: ids.personTd,
    });
    const otherRouting = await ok("POST", `${ctx.path}/routings`, {
      name: "morning",
      hasWoTThingDescription: ids.personTd,
    });
    const operation = await change("routing-operations", ids.operation, {
      hasRouting: otherRouting.id,
      hasWoTAction: otherAction.id,
    });
    expect(operation.status).toBe(409);
    expect(Object.keys(named(operation.body))).toEqual([ids.control]);
    expect((await editable("routing-operations", ids.operation)).hasRouting).toBe(ids.routing);
  });

  it("refuses making a property a sub-property while a WoT property names it as an attribute of the type", async () => {
    const floors = ctx.properties["Building.floors"]!;
    const nested = await ctx.api("PUT", `${ctx.path}/properties/${floors}`, {
      ...(await editable("properties", floors)),
      hasProperty: ctx.properties["Building.address"],
    });
    expect(nested.status).toBe(409);
    expect(named(nested.body)).toEqual({ [ids.floors]: "wot-properties storeys" });
  });

  it("refuses changing a contract's scope under scoped details, or a scope type's scopeName under them", async () => {
    const { api, path, types } = ctx;
    for (const [name, scopeName] of [
      ["Person", "person"],
      ["Building", "building"],
    ])
      expect((await change("types", types[name]!, { scopeName })).status).toBe(200);
    for (const entity of [
      { id: "urn:ngsi-ld:Person:ada", type: "Person", name: { type: "Property", value: "Ada" } },
      { id: "urn:ngsi-ld:Person:bob", type: "Person", name: { type: "Property", value: "Bob" } },
      {
        id: "urn:ngsi-ld:Building:owned",
        type: "Building",
        owner: { type: "Relationship", object: "urn:ngsi-ld:Person:ada" },
      },
    ])
      expect((await api("POST", `${path}/entities`, entity)).status).toBe(201);
    const role = await ok("POST", `${path}/roles`, {
      name: "Tenant",
      ...ALL_YEAR,
      dataServiceProviderId: "did:web:provider.example.org",
      verifiableCredentialType: "TenantCredential",
    });
    const contract = await ok("POST", `${path}/contracts`, {
      stakeholderDid: "did:web:tenant.example.org",
      stakeholderName: "Tenant & Co",
      validFromTime: ALL_YEAR.notBefore,
      validToTime: ALL_YEAR.notOnOrAfter,
      verifiableCredentialType: "TenantCredential",
      scopeType: types.Person,
      scopeEntity: "urn:ngsi-ld:Person:ada",
    });
    const detail = await ok("POST", `${path}/contract-details`, {
      hasContract: contract.id,
      hasRole: role.id,
      scopeType: types.Building,
      scopeEntity: "urn:ngsi-ld:Building:owned",
    });
    const rescoped = await change("contracts", contract.id, { scopeEntity: "urn:ngsi-ld:Person:bob" });
    expect(rescoped.status).toBe(409);
    expect(named(rescoped.body)).toEqual({ [detail.id]: "contract-details Tenant" });
    const unnamed = await change("types", types.Person!, { scopeName: undefined });
    expect(unnamed.status).toBe(409);
    // A contract goes by its stakeholder.
    expect(unnamed.body.detail).toBe(
      "The change of its “Scope name” would break these records that go with it: “Tenant & Co”.",
    );
    expect((await editable("types", types.Person!)).scopeName).toBe("person");
    // Its validity, which no detail relies on, changes.
    expect((await change("contracts", contract.id, { validToTime: ALL_YEAR.notOnOrAfter + 60 })).status).toBe(
      200,
    );
  });

  it("carries a role's roleName along to its accesses in the role's update", async () => {
    const role = await ok("POST", `${ctx.path}/roles`, {
      name: "Auditor",
      ...ALL_YEAR,
      dataServiceProviderId: "did:web:provider.example.org",
      verifiableCredentialType: "AuditCredential",
    });
    const access = await ok("POST", `${ctx.path}/data-service-accesses`, {
      hasDataService: ids.service,
      hasRole: role.id,
    });
    expect(access.roleName).toBe("Auditor");
    expect((await change("roles", role.id, { roleName: "Chief_auditor" })).status).toBe(200);
    expect((await editable("data-service-accesses", access.id)).roleName).toBe("Chief_auditor");
  });
});
