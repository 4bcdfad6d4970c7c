import { describe, expect, it } from "vitest";
import { attributeEvents, writtenInstances, type Change } from "../src/changes.ts";
import { matchChange } from "../src/matching.ts";
import type { StoredEntity } from "../src/model.ts";
import type { StoredSubscription } from "../src/subscription-model.ts";

const V = "https://uri.etsi.org/ngsi-ld/default-context/";
const entity = (attrs: StoredEntity["attrs"], modifiedAt = "2024-01-01T00:00:00.000Z"): StoredEntity => ({
  id: "urn:ngsi-ld:Room:1",
  types: [`${V}Room`],
  attrs,
  createdAt: "2024-01-01T00:00:00.000Z",
  modifiedAt,
});
const prop = (value: unknown, modifiedAt = "2024-01-01T00:00:00.000Z") => [
  { type: "Property" as const, value, createdAt: "2024-01-01T00:00:00.000Z", modifiedAt },
];
const subscription = (extra: Partial<StoredSubscription> = {}): StoredSubscription => ({
  id: "urn:ngsi-ld:Subscription:1",
  isActive: true,
  entities: [{ type: `${V}Room` }],
  notification: { format: "normalized", endpoint: { uri: "http://x/", accept: "application/json" } },
  ...extra,
});

describe("changes", () => {
  it("tells created, updated and deleted attributes, and the instances written", () => {
    const before = entity({ [`${V}a`]: prop(1), [`${V}b`]: prop(2), [`${V}c`]: prop(3) });
    const after = entity({
      [`${V}a`]: prop(1),
      [`${V}b`]: prop(5, "2024-01-02T00:00:00.000Z"),
      [`${V}d`]: prop(4),
    });
    const change: Change = { before, after };
    expect(attributeEvents(change)).toEqual({ created: [`${V}d`], updated: [`${V}b`], deleted: [`${V}c`] });
    expect(writtenInstances(change).map((w) => w.attribute)).toEqual([`${V}b`, `${V}d`]);
  });

  it("counts a rewrite in the same millisecond as written when the instance differs", () => {
    const before = entity({ [`${V}a`]: prop(1) });
    const after = entity({ [`${V}a`]: prop(2) });
    expect(writtenInstances({ before, after })).toHaveLength(1);
    expect(writtenInstances({ before, after: before })).toHaveLength(0);
  });
});

describe("matchChange", () => {
  const created: Change = { after: entity({ [`${V}temperature`]: prop(25) }) };
  const updated: Change = {
    before: created.after,
    after: entity({ [`${V}temperature`]: prop(31, "2024-01-02T00:00:00.000Z") }),
  };
  const deleted: Change = { before: updated.after };

  it("defaults to attributeCreated and attributeUpdated", () => {
    expect(matchChange(subscription(), created)).toBe("attributeCreated");
    expect(matchChange(subscription(), updated)).toBe("attributeUpdated");
    expect(matchChange(subscription(), deleted)).toBeUndefined();
  });

  it("honours notificationTrigger, watchedAttributes, selectors, q and geoQ", () => {
    expect(matchChange(subscription({ notificationTrigger: ["entityDeleted"] }), deleted)).toBe(
      "entityDeleted",
    );
    expect(matchChange(subscription({ notificationTrigger: ["entityCreated"] }), created)).toBe(
      "entityCreated",
    );
    expect(matchChange(subscription({ watchedAttributes: [`${V}humidity`] }), updated)).toBeUndefined();
    expect(matchChange(subscription({ entities: [{ type: `${V}Car` }] }), updated)).toBeUndefined();
    expect(matchChange(subscription({ entities: [{ type: `${V}Room`, idPattern: ":1$" }] }), updated)).toBe(
      "attributeUpdated",
    );
    const q = (text: string) => ({
      q: text,
      qPaths: [{ attribute: `${V}temperature`, subAttributes: [], keys: [] }],
    });
    expect(matchChange(subscription(q("temperature>30")), updated)).toBe("attributeUpdated");
    expect(matchChange(subscription(q("temperature>30")), created)).toBeUndefined();
    const located: Change = {
      after: entity({
        "https://uri.etsi.org/ngsi-ld/location": [
          { type: "GeoProperty", value: { type: "Point", coordinates: [13.4, 52.5] } },
        ],
      }),
    };
    const geoQ = (coordinates: number[]) => ({
      geoQ: {
        georel: "near;maxDistance==1000",
        geometry: "Point",
        coordinates,
        geoproperty: "https://uri.etsi.org/ngsi-ld/location",
      },
    });
    expect(matchChange(subscription(geoQ([13.401, 52.501])), located)).toBe("attributeCreated");
    expect(matchChange(subscription(geoQ([2.35, 48.85])), located)).toBeUndefined();
  });
});
