import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/storage/migrations.ts";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// The names that key a thing description's affordances (properties, actions, events), its
// routings, and an action's inputs are unique there, held by the database: of simultaneous
// creations one wins and the others are told what they clashed with (409).

const ctx = useEmbeddedWorkspace();
const ids: Record<string, string> = {};

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  const { path, types, properties } = ctx;
  ids.td = (
    await ok("POST", `${path}/wot-thing-descriptions`, { name: "Building", hasType: types.Building })
  ).id;
  ids.otherTd = (
    await ok("POST", `${path}/wot-thing-descriptions`, { name: "Building too", hasType: types.Building })
  ).id;
  ids.action = (
    await ok("POST", `${path}/wot-actions`, { name: "renovate", hasWoTThingDescription: ids.td })
  ).id;
  ids.floors = (
    await ok("POST", `${path}/wot-properties`, {
      name: "floors",
      hasProperty: properties["Building.floors"],
      capacityType: "FreeText",
      capacityValue: "any",
      hasWoTThingDescription: ids.td,
    })
  ).id;
  const notification = await ok("POST", "/api/data-actions", { name: `POST:Notification ${driver}` });
  ids.service = (
    await ok("POST", `${path}/data-services`, {
      name: "Building changes",
      hasEntityType: types.Building,
      hasProperties: [properties["Building.floors"]],
      hasDataActions: [notification.id],
    })
  ).id;
});

/** Each kind with a body whose name clashes in its parent, and the message of the clash. */
const kinds = () => [
  {
    kind: "wot-properties",
    code: "conflict.wotPropertyName",
    detail: 'The thing description already has a WoT property named "level".',
    body: {
      name: "level",
      hasProperty: ctx.properties["Building.floors"],
      capacityType: "Range",
      capacityValue: "[0, 50]",
      hasWoTThingDescription: ids.td,
    },
  },
  {
    kind: "wot-actions",
    code: "conflict.wotActionName",
    detail: 'The thing description already has an action named "open".',
    body: { name: "open", hasWoTThingDescription: ids.td },
  },
  {
    kind: "wot-events",
    code: "conflict.wotEventName",
    detail: 'The thing description already has an event named "changed".',
    body: {
      name: "changed",
      hasDataService: ids.service,
      hasWoTProperty: ids.floors,
      capacityValue: "any",
      hasWoTThingDescription: ids.td,
    },
  },
  {
    kind: "routings",
    code: "conflict.routingName",
    detail: 'The thing description already has a routing named "night".',
    body: { name: "night", hasWoTThingDescription: ids.td },
  },
  {
    kind: "wot-action-input-properties",
    code: "conflict.wotInputName",
    detail: 'The action already has an input property named "floors".',
    body: {
      name: "floors",
      propertyType: "number",
      required: true,
      hasWoTAction: ids.action,
      hasWoTThingDescription: ids.td,
    },
  },
];

describe(`WoT names under concurrency (${driver})`, () => {
  it("lets one of twenty simultaneous creations of a name in a thing description in, and names the clash to the others", async () => {
    for (const { kind, code, detail, body } of kinds()) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => ctx.api("POST", `${ctx.path}/${kind}`, body)),
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 201),
        `${kind}: ${statuses.join(" ")}`,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        `${kind}: ${statuses.join(" ")}`,
      ).toHaveLength(19);
      for (const refused of answers.filter((a) => a.status === 409))
        expect(refused.body, kind).toMatchObject({ code, detail, errors: [{ path: "name", code }] });
      const listed = (await ctx.api("GET", `${ctx.path}/${kind}`)).body as Array<{ name: string }>;
      expect(
        listed.filter((r) => r.name === body.name),
        kind,
      ).toHaveLength(1);
    }
  });

  it("tells the clash in French too, and keeps names free elsewhere and on rename", async () => {
    const french = await ctx.api(
      "POST",
      `${ctx.path}/wot-actions`,
      { name: "open", hasWoTThingDescription: ids.td },
      { "accept-language": "fr" },
    );
    expect(french.status).toBe(409);
    expect(french.body.detail).toBe("La description d’objet a déjà une action nommée « open ».");
    // The same name in another thing description, or as another kind of affordance, is another record.
    const elsewhere = await ctx.api("POST", `${ctx.path}/wot-actions`, {
      name: "open",
      hasWoTThingDescription: ids.otherTd,
    });
    expect(elsewhere.status).toBe(201);
    expect(
      (await ctx.api("POST", `${ctx.path}/routings`, { name: "open", hasWoTThingDescription: ids.td }))
        .status,
    ).toBe(201);
    // Renaming into a clash is refused; keeping one's own name is not a clash.
    const renamed = await ctx.api("PUT", `${ctx.path}/wot-actions/${ids.action}`, {
      name: "open",
      hasWoTThingDescription: ids.td,
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe("conflict.wotActionName");
    const kept = await ctx.api("PUT", `${ctx.path}/wot-actions/${ids.action}`, {
      name: "renovate",
      description: "Rebuild",
      hasWoTThingDescription: ids.td,
    });
    expect(kept.status).toBe(200);
  });
});

describe(`a database that holds duplicate WoT names from before (${driver})`, () => {
  it("migrates: later duplicates get a numbered suffix, and the database holds the names unique from then on", async () => {
    const db = ctx.t.storage.db;
    for (const index of ["wot_property", "wot_action", "wot_event", "routing", "wot_input"])
      await db.execute(sql.raw(`DROP INDEX records_unique_${index}_name`));
    await db.execute(sql.raw("DELETE FROM orrery_migrations WHERE name = '0012_wot_unique_names'"));
    const twice = async (kind: string, body: Record<string, unknown>) => [
      (await ok("POST", `${ctx.path}/${kind}`, body)).id as string,
      (await ok("POST", `${ctx.path}/${kind}`, body)).id as string,
    ];
    const routingsBefore = await twice("routings", { name: "day", hasWoTThingDescription: ids.td });
    // A third one, and a record already named as the second would be renamed.
    const third = (await ok("POST", `${ctx.path}/routings`, { name: "day", hasWoTThingDescription: ids.td }))
      .id;
    await ok("POST", `${ctx.path}/routings`, { name: "day_3", hasWoTThingDescription: ids.td });
    const inputs = await twice("wot-action-input-properties", {
      name: "urgent",
      propertyType: "boolean",
      hasWoTAction: ids.action,
      hasWoTThingDescription: ids.td,
    });

    await migrate(db);

    const nameOf = async (kind: string, id: string) =>
      (await ctx.api("GET", `${ctx.path}/${kind}/${id}`)).body.name as string;
    expect(await nameOf("routings", routingsBefore[0]!)).toBe("day");
    expect(await nameOf("routings", routingsBefore[1]!)).toBe("day_2");
    expect(await nameOf("routings", third)).toMatch(/^day_3_[0-9a-f]{8}$/);
    expect(await nameOf("wot-action-input-properties", inputs[1]!)).toBe("urgent_2");
    const again = await ctx.api("POST", `${ctx.path}/routings`, {
      name: "day_2",
      hasWoTThingDescription: ids.td,
    });
    expect(again.status).toBe(409);
  });
});
