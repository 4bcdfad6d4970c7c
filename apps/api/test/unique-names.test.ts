import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { migrate } from "../src/storage/migrations.ts";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// Names the data model needs unique, held by the database: concurrent requests cannot both win,
// and the loser is told what it clashed with (409), instead of a model that never generates again.

const ctx = useEmbeddedWorkspace();

describe(`unique names under concurrency (${driver})`, () => {
  it("lets one of four simultaneous workspaces with one data model name in, and names the clash to the others", async () => {
    const dataModelName = `race-${Date.now().toString(36)}`;
    const answers = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        ctx.api("POST", "/api/workspaces", {
          name: `Race ${i}`,
          dataModelName,
          hasService: ctx.workspace.hasService,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body).toMatchObject({
      code: "conflict.dataModelName",
      detail: `A workspace already uses the data model name "${dataModelName}".`,
      errors: [{ path: "dataModelName" }],
    });
    const winner = answers.find((a) => a.status === 201)!.body;
    expect((await ctx.api("POST", `/api/workspace/${winner.id}/data-model/generate`)).status).toBe(200);
  });

  it("refuses a second type with one name in a workspace, also when both are created at once", async () => {
    const first = await ctx.api("POST", `${ctx.path}/types`, { name: "Person" });
    expect(first.status).toBe(409);
    expect(first.body.detail).toBe('The workspace already has a type named "Person".');
    const answers = await Promise.all(
      [1, 2, 3].map(() => ctx.api("POST", `${ctx.path}/types`, { name: "Tree" })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    // The same name in another workspace is another type.
    const other = await ctx.another();
    expect((await ctx.api("POST", `${other.path}/types`, { name: "Tree" })).status).toBe(201);
    // Renaming into a clash is refused too.
    const renamed = await ctx.api("PUT", `${ctx.path}/types/${ctx.types.Person}`, { name: "Building" });
    expect(renamed.status).toBe(409);
  });

  it("refuses two properties with one name in a type, or under one parent, and generates afterwards", async () => {
    const building = ctx.types.Building!;
    const twin = await ctx.api("POST", `${ctx.path}/properties`, {
      name: "floors",
      hasType: building,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    });
    expect(twin.status).toBe(409);
    expect(twin.body.errors).toEqual([
      expect.objectContaining({ path: "name", code: "conflict.propertyName" }),
    ]);
    const sub = (name: string) =>
      ctx.api("POST", `${ctx.path}/properties`, {
        name,
        hasType: building,
        hasProperty: ctx.properties["Building.floors"],
        ngsiLdType: "Property",
        propertyNgsiLdValueType: "String",
      });
    const [a, b] = await Promise.all([sub("unitLabel"), sub("unitLabel")]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    // The same name on another type is another property.
    const onPerson = await ctx.api("POST", `${ctx.path}/properties`, {
      name: "floors",
      hasType: ctx.types.Person,
      ngsiLdType: "Property",
      propertyNgsiLdValueType: "Number",
    });
    expect(onPerson.status).toBe(201);
    expect((await ctx.api("POST", `${ctx.path}/data-model/generate`)).status).toBe(200);
  });
});

describe(`names NGSI-LD reserves (${driver})`, () => {
  it("refuses a property or sub-property named like an NGSI-LD member, with the reason", async () => {
    for (const [name, reason] of [
      ["unitCode", "every attribute may have a member of that name"],
      ["observedAt", "every attribute may have a member of that name"],
      ["datasetId", "every attribute may have a member of that name"],
      ["type", "every entity has a member of that name"],
      ["value", "every attribute may have a member of that name"],
      ["createdAt", "the broker sets it itself"],
    ]) {
      for (const parent of [undefined, ctx.properties["Building.floors"]]) {
        const res = await ctx.api("POST", `${ctx.path}/properties`, {
          name,
          hasType: ctx.types.Building,
          ...(parent ? { hasProperty: parent } : {}),
          ngsiLdType: "Property",
          propertyNgsiLdValueType: "String",
        });
        expect(res.status, name).toBe(400);
        expect(res.body.errors).toEqual([
          expect.objectContaining({
            path: "name",
            code: "field.reserved",
            message: `"${name}" is reserved by NGSI-LD: ${reason}`,
          }),
        ]);
      }
    }
    const french = await ctx.api(
      "POST",
      `${ctx.path}/properties`,
      {
        name: "observedAt",
        hasType: ctx.types.Building,
        ngsiLdType: "Property",
        propertyNgsiLdValueType: "String",
      },
      { "accept-language": "fr" },
    );
    expect(french.body.errors[0].message).toBe(
      "« observedAt » est réservé par NGSI-LD\u00a0: chaque attribut peut avoir un membre de ce nom",
    );
    // location is an NGSI-LD GeoProperty like any other: allowed.
    const location = await ctx.api("POST", `${ctx.path}/properties`, {
      name: "location",
      hasType: ctx.types.Person,
      ngsiLdType: "GeoProperty",
      geoPropertyNgsiLdType: "Point",
    });
    expect(location.status).toBe(201);
  });

  it("reports a reserved name in a properties import, and imports nothing", async () => {
    const res = await ctx.api("POST", `${ctx.path}/properties/import`, {
      typeId: ctx.types.Person,
      properties: [
        { name: "nickname", ngsiLdType: "Property", propertyNgsiLdValueType: "String" },
        { name: "observedAt", ngsiLdType: "Property", propertyNgsiLdValueType: "String" },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        path: "properties.1.name",
        message: expect.stringContaining("reserved by NGSI-LD"),
      }),
    ]);
    const names = ((await ctx.api("GET", `${ctx.path}/properties`)).body as Array<{ name: string }>).map(
      (p) => p.name,
    );
    expect(names).not.toContain("nickname");
  });
});

describe(`a database that holds duplicates from before (${driver})`, () => {
  it("migrates: later duplicates get a numbered suffix, and the database holds the names unique from then on", async () => {
    const db = ctx.t.storage.db;
    await db.execute(sql.raw("DROP INDEX records_unique_data_model_name"));
    await db.execute(sql.raw("DROP INDEX records_unique_type_name"));
    await db.execute(sql.raw("DROP INDEX records_unique_property_name"));
    await db.execute(sql.raw("DELETE FROM orrery_migrations WHERE name = '0005_unique_names'"));
    const twin = (
      await ctx.api("POST", "/api/workspaces", {
        name: "Twin",
        dataModelName: `twin-${Date.now().toString(36)}`,
        hasService: ctx.workspace.hasService,
      })
    ).body;
    const again = await ctx.api("POST", "/api/workspaces", {
      name: "Twin again",
      dataModelName: twin.dataModelName,
      hasService: ctx.workspace.hasService,
    });
    expect(again.status).toBe(201);
    const dupType = await ctx.api("POST", `${ctx.path}/types`, { name: "Person" });
    expect(dupType.status).toBe(201);

    await migrate(db);

    expect((await ctx.api("GET", `/api/workspaces/${again.body.id}`)).body.dataModelName).toBe(
      `${twin.dataModelName}-2`,
    );
    expect((await ctx.api("GET", `${ctx.path}/types/${dupType.body.id}`)).body.name).toBe("Person_2");
    expect((await ctx.api("POST", `${ctx.path}/types`, { name: "Person_2" })).status).toBe(409);
  });
});
