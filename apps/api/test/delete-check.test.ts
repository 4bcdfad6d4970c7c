import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/fakes/browser.ts";
import { loadDemoContextData } from "../src/demo/demo-context-data.ts";
import { loadDemoData } from "../src/demo/demo-data.ts";
import { client, driver, startTestApp, type TestApp } from "./support/harness.ts";

/** The demo data as `npm start` loads it: what its seven records' delete dialogs name before Yes. */
let t: TestApp;
let api: ReturnType<typeof client>;
let path: string;
const ids: Record<string, string> = {};

interface Named {
  id: string;
  kind: string;
  name: string;
  href?: string;
  [field: string]: unknown;
}
const list = async (url: string) => (await api("GET", url)).body as Named[];
const named = async (url: string, name: string, also: (r: Named) => boolean = () => true) =>
  (await list(url)).find((r) => r.name === name && also(r))!.id;

beforeAll(async () => {
  const port = await freePort();
  t = await startTestApp({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: "127.0.0.1" });
  await loadDemoData(t.storage.db, t.records, t.config);
  await loadDemoContextData(t.storage.db, t.records, t.sessions, t.config, t.app.log);
  api = client(t, await t.tokenFor("admin"));
  ids.workspace = await named("/api/workspaces", "Supermarket");
  path = `/api/workspace/${ids.workspace}`;
  ids.broker = await named("/api/context-brokers", "Embedded broker");
  ids.shelf = await named(`${path}/types`, "Shelf");
  ids.numberOfItems = await named(
    `${path}/properties`,
    "numberOfItems",
    (p) => p.hasType === ids.shelf && !p.hasProperty,
  );
  ids.stock = await named(`${path}/wot-properties`, "stock");
  ids.restock = await named(`${path}/wot-actions`, "restock");
  ids.service = await named(`${path}/data-services`, "Shelf stock levels");
}, 180_000);
afterAll(() => t?.close());

/**
 * The 409's records are the check's, in its order; the check names, besides each one's own
 * references, those of the records it sits under (where its page is).
 */
function expectTheSame(referrers: Named[], blockers: Named[]) {
  const record = ({ id, kind, name, workspaceId }: Named) => ({ id, kind, name, workspaceId });
  expect(referrers.map(record)).toEqual(blockers.map(record));
  referrers.forEach((r, i) => expect(blockers[i]!.refs).toMatchObject((r.refs as object) ?? {}));
}

/** "kind name" of each record named, in the order given. */
const titles = (found: Named[]) => found.map((r) => `${r.kind} ${r.name}`);

describe(`what a delete would meet, asked before it (${driver})`, () => {
  const cases: Array<{ record: string; url: () => string; blockers: string[]; cascades?: string[] }> = [
    {
      record: "the Embedded broker",
      url: () => `/api/context-brokers/${ids.broker}`,
      blockers: ["services Demo service", "services Protected demo service"],
    },
    {
      record: "the type Shelf",
      url: () => `${path}/types/${ids.shelf}`,
      blockers: [
        "contract-details freshfoods-store001-shelf001",
        "data-services Shelf stock levels",
        "properties locatedIn",
        "properties location",
        "properties maxCapacity",
        "properties name",
        "properties numberOfItems",
        "properties stocks",
        "wot-thing-descriptions Smart shelf",
      ],
    },
    {
      record: "the model property numberOfItems",
      url: () => `${path}/properties/${ids.numberOfItems}`,
      blockers: ["data-services Shelf stock levels", "wot-properties stock"],
    },
    {
      record: "the WoT property stock",
      url: () => `${path}/wot-properties/${ids.stock}`,
      blockers: [
        "routing-operation-controls stock = 50",
        "routing-operation-controls stock = 100",
        "wot-events stockChanged",
      ],
    },
    {
      record: "the WoT action restock",
      url: () => `${path}/wot-actions/${ids.restock}`,
      blockers: [
        "routing-operations 1. restock",
        "routing-operations 2. restock",
        "wot-action-input-properties numberOfItems",
      ],
    },
    {
      record: "the data service Shelf stock levels",
      url: () => `${path}/data-services/${ids.service}`,
      blockers: [
        "data-service-accesses Stock analyst → Shelf stock levels",
        "data-service-offers Live stock levels of every shelf",
        "wot-events stockChanged",
      ],
      // Its links to the properties and actions it offers go with it.
      cascades: [
        "data-actions GET",
        "data-actions POST:Notification",
        "properties maxCapacity",
        "properties name",
        "properties numberOfItems",
      ],
    },
  ];
  for (const c of cases)
    it(`names what keeps ${c.record} from deletion, as the delete's 409 does, and deletes nothing`, async () => {
      const check = await api("GET", `${c.url()}/delete-check`);
      expect(check.status, JSON.stringify(check.body)).toBe(200);
      expect(titles(check.body.blockers)).toEqual(c.blockers);
      expect(titles(check.body.cascades)).toEqual(c.cascades ?? []);
      // Each one's own address, where its page reads it.
      for (const named of [...check.body.blockers, ...check.body.cascades] as Named[]) {
        const page = await api("GET", named.href!);
        expect(page.status, named.href).toBe(200);
        expect(page.body.id).toBe(named.id);
      }
      expect((await api("GET", c.url())).status).toBe(200);
      const refused = await api("DELETE", c.url());
      expect(refused.status).toBe(409);
      expectTheSame(refused.body.referrers, check.body.blockers);
    });

  it("names the thing description a routing operation sits under, where its page is", async () => {
    const check = await api("GET", `${path}/wot-actions/${ids.restock}/delete-check`);
    const td = await named(`${path}/wot-thing-descriptions`, "Smart shelf");
    const operation = (check.body.blockers as Named[]).find((b) => b.kind === "routing-operations")!;
    expect(operation.refs).toMatchObject({ hasWoTAction: ids.restock, hasWoTThingDescription: td });
  });

  it("names what the workspace Supermarket holds: every kind of record in it, before its delete refuses", async () => {
    const check = await api("GET", `/api/workspaces/${ids.workspace}/delete-check`);
    expect(check.status).toBe(200);
    const kinds = new Set((check.body.blockers as Named[]).map((b) => b.kind));
    for (const kind of [
      "types",
      "properties",
      "data-services",
      "wot-thing-descriptions",
      "roles",
      "contracts",
    ])
      expect(kinds, kind).toContain(kind);
    expect(titles(check.body.blockers)).toContain("types Shelf");
    const refused = await api("DELETE", `/api/workspaces/${ids.workspace}`);
    expect(refused.status).toBe(409);
    expectTheSame(refused.body.referrers, check.body.blockers);
    expect((await api("GET", `${path}/types/${ids.shelf}`)).status).toBe(200);
  });

  it("answers nothing in the way for a record nothing refers to, and its delete then goes through", async () => {
    const created = await api("POST", `${path}/types`, { name: "Crate" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const check = await api("GET", `${path}/types/${created.body.id}/delete-check`);
    expect(check.body).toEqual({ blockers: [], blockersTotal: 0, cascades: [] });
    expect((await api("DELETE", `${path}/types/${created.body.id}`)).status).toBe(204);
    expect((await api("GET", `${path}/types/${created.body.id}/delete-check`)).status).toBe(404);
  });

  it("is answered to whoever may read the record, and refused to others", async () => {
    const url = `/api/context-brokers/${ids.broker}/delete-check`;
    const viewer = client(t, await t.tokenFor("viewer"));
    expect((await viewer("GET", url)).status).toBe(200);
    // A viewer may not delete: asking leaves the record there.
    expect((await viewer("DELETE", `/api/context-brokers/${ids.broker}`)).status).toBe(403);
    const showroom = await client(t, await t.tokenFor("showroom"))("GET", url);
    expect(showroom.status).toBe(403);
    expect(showroom.headers["content-type"]).toContain("application/problem+json");
    // Allowed to read the record only: the check is allowed as its read is.
    const onlyThis = client(
      t,
      await t.tokenWith([{ action: "GET", resource: `/api/context-brokers/${ids.broker}`, exact: true }]),
    );
    expect((await onlyThis("GET", `/api/context-brokers/${ids.broker}`)).status).toBe(200);
    expect((await onlyThis("GET", url)).status).toBe(200);
    expect((await onlyThis("GET", `${path}/types/${ids.shelf}/delete-check`)).status).toBe(403);
    expect((await api("GET", url.replace("/api/", "/api/x/"))).status).toBe(404);
    expect((await client(t)("GET", url)).status).toBe(401);
  });

  it("lists the first 50 records a workspace holds and counts them all, as its refused delete does", async () => {
    const supermarket = (await api("GET", `/api/workspaces/${ids.workspace}`)).body as Named;
    const made = await api("POST", "/api/workspaces", {
      name: "Full .*+?(|\\",
      dataModelName: "full-workspace",
      hasService: supermarket.hasService,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const full = `/api/workspace/${encodeURIComponent(made.body.id)}`;
    for (let i = 0; i < 62; i++) {
      const type = await api("POST", `${full}/types`, { name: `Kind${String(i).padStart(2, "0")}` });
      expect(type.status, JSON.stringify(type.body)).toBe(201);
    }
    const check = await api("GET", `/api/workspaces/${encodeURIComponent(made.body.id)}/delete-check`);
    expect(check.status).toBe(200);
    expect(check.body.blockers).toHaveLength(50);
    expect(check.body.blockersTotal).toBe(62);
    const refused = await api("DELETE", `/api/workspaces/${encodeURIComponent(made.body.id)}`);
    expect(refused.status).toBe(409);
    expect(refused.body.referrers).toHaveLength(50);
    expect(refused.body.referrersTotal).toBe(62);
    // A record with fewer blockers than the list holds counts exactly those it names.
    const shelf = await api("GET", `${path}/types/${ids.shelf}/delete-check`);
    expect(shelf.body.blockersTotal).toBe(shelf.body.blockers.length);
  });

  it("answers an unknown or hostile id, or another workspace's record, with a readable 404", async () => {
    for (const id of [".*+?(|\\", "urn:ngsi-ld:ContextBroker:nope", ids.shelf!]) {
      const res = await api("GET", `/api/context-brokers/${encodeURIComponent(id)}/delete-check`);
      expect(res.status, id).toBe(404);
      expect(res.headers["content-type"]).toContain("application/problem+json");
      expect(res.body.detail).toBeTruthy();
    }
    const farm = await named("/api/workspaces", "Farm");
    const elsewhere = await api("GET", `/api/workspace/${farm}/types/${ids.shelf}/delete-check`);
    expect(elsewhere.status).toBe(404);
    const hostile = await api(
      "GET",
      `/api/workspace/${encodeURIComponent(".*+?(|\\")}/types/${ids.shelf}/delete-check`,
    );
    expect(hostile.status).toBe(404);
  });
});
