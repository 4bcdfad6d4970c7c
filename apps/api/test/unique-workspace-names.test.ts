import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/storage/migrations.ts";
import { driver } from "./support/harness.ts";
import { useEmbeddedWorkspace } from "./support/embedded-workspace.ts";

// What a workspace needs unique, held by the database: a role's name, a data service's name, a
// thing description's name (compared without case and surrounding spaces, migration 0025) and an
// operation's sequence number in its routing. Of simultaneous creations one wins; the others are
// told what they clashed with (409). A contract's stakeholder DID is not unique (issue 36).

const ctx = useEmbeddedWorkspace();
const ids: Record<string, string> = {};
const ALL_YEAR = { notBefore: 1_767_225_600, notOnOrAfter: 1_798_761_600 };

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  const { path, types, properties } = ctx;
  ids.read = (await ok("POST", "/api/data-actions", { name: `GET names ${driver}` })).id;
  ids.td = (
    await ok("POST", `${path}/wot-thing-descriptions`, { name: "Depot", hasType: types.Building })
  ).id;
  ids.action = (await ok("POST", `${path}/wot-actions`, { name: "open", hasWoTThingDescription: ids.td })).id;
  ids.routing = (await ok("POST", `${path}/routings`, { name: "night", hasWoTThingDescription: ids.td })).id;
  ids.otherRouting = (
    await ok("POST", `${path}/routings`, { name: "day", hasWoTThingDescription: ids.td })
  ).id;
  ids.property = properties["Building.floors"]!;
});

const role = (name: string) => ({
  name,
  ...ALL_YEAR,
  dataServiceProviderId: "did:web:provider.example.org",
  verifiableCredentialType: "AuditCredential",
});
const contract = (stakeholderDid: string, stakeholderName = "Retailer") => ({
  stakeholderDid,
  stakeholderName,
  validFromTime: ALL_YEAR.notBefore,
  validToTime: ALL_YEAR.notOnOrAfter,
  verifiableCredentialType: "RetailerCredential",
});
const operation = (sequenceNumber: number, hasRouting = ids.routing) => ({
  sequenceNumber,
  timerBefore: 0,
  timerAfter: 5,
  hasWoTAction: ids.action,
  hasRouting,
});

/** Each kind with a body whose name clashes in the workspace, and the message of the clash. */
const kinds = () => [
  {
    kind: "roles",
    field: "name",
    code: "conflict.roleTitle",
    detail: 'The workspace already has a role named "Auditor".',
    // Distinct roleNames: the name alone clashes.
    body: (i: number) => ({ ...role("Auditor"), roleName: `auditor_${i}` }),
  },
  {
    kind: "data-services",
    field: "name",
    code: "conflict.dataServiceName",
    detail: 'The workspace already has a data service named "Depot readings".',
    body: () => ({
      name: "Depot readings",
      hasEntityType: ctx.types.Building,
      hasProperties: [ids.property],
      hasDataActions: [ids.read],
    }),
  },
  {
    kind: "wot-thing-descriptions",
    field: "name",
    code: "conflict.thingDescriptionName",
    detail: 'The workspace already has a thing description named "Warehouse".',
    body: () => ({ name: "Warehouse", hasType: ctx.types.Building }),
  },
  {
    kind: "routing-operations",
    field: "sequenceNumber",
    code: "conflict.operationSequence",
    detail: "The routing already has an operation with the sequence number 1.",
    body: () => operation(1),
  },
];

describe(`names a workspace needs unique, under concurrency (${driver})`, () => {
  it("lets one of twenty simultaneous creations in, and names the clash to the nineteen others", async () => {
    for (const { kind, field, code, detail, body } of kinds()) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => ctx.api("POST", `${ctx.path}/${kind}`, body(i))),
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
        expect(refused.body, kind).toMatchObject({ code, detail, errors: [{ path: field, code }] });
      const value = body(0)[field as keyof ReturnType<typeof body>];
      const listed = (await ctx.api("GET", `${ctx.path}/${kind}`)).body as Array<Record<string, unknown>>;
      expect(
        listed.filter((r) => r[field] === value),
        kind,
      ).toHaveLength(1);
      ids[kind] = answers.find((a) => a.status === 201)!.body.id;
    }
  });

  it("tells the clash in French, refuses a rename into it, and keeps the names free elsewhere", async () => {
    const { api, path } = ctx;
    const french = await api("POST", `${path}/roles`, role("Auditor"), { "accept-language": "fr" });
    expect(french.status).toBe(409);
    expect(french.body.detail).toBe("L’espace de travail a déjà un rôle nommé «\u00a0Auditor\u00a0».");

    const second = await ok("POST", `${path}/wot-thing-descriptions`, {
      name: "Shed",
      hasType: ctx.types.Person,
    });
    const renamed = await api("PUT", `${path}/wot-thing-descriptions/${second.id}`, {
      name: "Warehouse",
      hasType: ctx.types.Person,
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe("conflict.thingDescriptionName");
    const moved = await api("PUT", `${path}/routing-operations/${ids["routing-operations"]}`, operation(2));
    expect(moved.status).toBe(200);
    const renumbered = await ok("POST", `${path}/routing-operations`, operation(3));
    const onto = await api("PUT", `${path}/routing-operations/${renumbered.id}`, operation(2));
    expect(onto.status).toBe(409);
    expect(onto.body.code).toBe("conflict.operationSequence");

    // One sequence number in another routing, a stakeholder in another workspace, two unnamed data services.
    expect((await api("POST", `${path}/routing-operations`, operation(2, ids.otherRouting))).status).toBe(
      201,
    );
    const other = await ctx.another();
    expect(
      (await api("POST", `${other.path}/contracts`, contract("did:web:retailer.example.org"))).status,
    ).toBe(201);
    expect((await api("POST", `${other.path}/roles`, role("Auditor"))).status).toBe(201);
    const unnamed = () =>
      api("POST", `${path}/data-services`, {
        hasEntityType: ctx.types.Building,
        hasProperties: [ids.property],
        hasDataActions: [ids.read],
      });
    expect([(await unnamed()).status, (await unnamed()).status]).toEqual([201, 201]);
  });
});

describe(`a database that holds duplicates from before (${driver})`, () => {
  it("migrates: later duplicates get a suffix, a routing is numbered again in order, and the database holds them unique", async () => {
    const db = ctx.t.storage.db;
    for (const index of [
      "named_role",
      "data_service_name",
      "thing_description_name",
      "contract_stakeholder",
      "operation_sequence",
    ])
      await db.execute(sql.raw(`DROP INDEX IF EXISTS records_unique_${index}`));
    await db.execute(
      sql.raw(
        "DELETE FROM orrery_migrations WHERE name IN ('0013_workspace_unique_names', '0025_names_without_case')",
      ),
    );
    const { path } = ctx;
    const twice = async (kind: string, body: (i: number) => Record<string, unknown>) => [
      (await ok("POST", `${path}/${kind}`, body(1))).id as string,
      (await ok("POST", `${path}/${kind}`, body(2))).id as string,
    ];
    const roles = await twice("roles", (i) => ({ ...role("Keeper"), roleName: `keeper_${i}` }));
    // The same name in other letters, and with spaces around as a client could store it before 0025.
    const lower = (await ok("POST", `${path}/roles`, { ...role("keeper"), roleName: "keeper_3" })).id;
    const spaced = (await ok("POST", `${path}/roles`, { ...role("Warden"), roleName: "warden_1" })).id;
    await db.execute(
      sql`UPDATE records SET name = ' Warden ', data = jsonb_set(data, '{name}', '" Warden "') WHERE id = ${spaced}`,
    );
    const tds = await twice("wot-thing-descriptions", () => ({ name: "Silo", hasType: ctx.types.Building }));
    // A third one, and a record already named as the second would be renamed.
    const third = (
      await ok("POST", `${path}/wot-thing-descriptions`, { name: "Silo", hasType: ctx.types.Building })
    ).id;
    await ok("POST", `${path}/wot-thing-descriptions`, { name: "Silo_3", hasType: ctx.types.Building });
    const contracts = await twice("contracts", (i) => contract("did:web:grocer.example.org", `Grocer ${i}`));
    const routing = (await ok("POST", `${path}/routings`, { name: "dawn", hasWoTThingDescription: ids.td }))
      .id;
    const [a, b] = await twice("routing-operations", () => operation(5, routing));
    const c = (await ok("POST", `${path}/routing-operations`, operation(6, routing))).id;
    const d = (await ok("POST", `${path}/routing-operations`, operation(4, routing))).id;

    await migrate(db);

    const read = async (kind: string, id: string) => ok("GET", `${path}/${kind}/${id}`);
    expect((await read("roles", roles[0]!)).name).toBe("Keeper");
    expect((await read("roles", roles[1]!)).name).toBe("Keeper_2");
    // "keeper" is "Keeper" without case: renamed "keeper_2", which is "Keeper_2" without case.
    expect((await read("roles", lower)).name).toMatch(/^keeper_2_[0-9a-f]{8}$/);
    expect((await read("roles", spaced)).name).toBe("Warden");
    expect((await ctx.api("POST", `${path}/roles`, role("warden "))).status).toBe(409);
    expect((await read("wot-thing-descriptions", tds[1]!)).name).toBe("Silo_2");
    expect((await read("wot-thing-descriptions", third)).name).toMatch(/^Silo_3_[0-9a-f]{8}$/);
    expect((await read("contracts", contracts[0]!)).stakeholderDid).toBe("did:web:grocer.example.org");
    expect((await read("contracts", contracts[1]!)).stakeholderDid).toBe(
      "did:web:grocer.example.org#duplicate-2",
    );
    // 4, 5, 5, 6 in their order: 4, 5, 6, 7.
    const numbers = await Promise.all(
      [d, a, b, c].map(async (id) => (await read("routing-operations", id)).sequenceNumber),
    );
    expect(numbers).toEqual([4, 5, 6, 7]);
    expect((await ctx.api("POST", `${path}/roles`, role("Keeper_2"))).status).toBe(409);
    expect((await ctx.api("POST", `${path}/routing-operations`, operation(7, routing))).status).toBe(409);
  });
});
