import { describe, expect, it } from "vitest";
import { NgsiLdError } from "../src/problems.ts";
import { evaluate, parseQuery, pathsOf, resolvePath, type Resolved } from "../src/query-language.ts";
import { translate } from "../src/query-sql.ts";

const V = "https://uri.etsi.org/ngsi-ld/default-context/";
const expand = (t: string) =>
  t.includes("://") ? t : t === "observedAt" ? "https://uri.etsi.org/ngsi-ld/observedAt" : V + t;

/** Parses and evaluates q against attributes given in compact form (one Property instance per value). */
function matches(q: string, attrs: Record<string, unknown>): boolean {
  const node = parseQuery(q);
  const resolved: Resolved = new Map(pathsOf(node).map((p) => [p, resolvePath(p, expand)]));
  const stored: Record<string, unknown[]> = {};
  for (const [k, v] of Object.entries(attrs))
    stored[expand(k)] = [v && typeof v === "object" && "type" in v ? v : { type: "Property", value: v }];
  return evaluate(node, stored, resolved);
}

const rejects = (q: string, message?: RegExp) => {
  let error: unknown;
  try {
    parseQuery(q);
  } catch (e) {
    error = e;
  }
  expect(error, q).toBeInstanceOf(NgsiLdError);
  expect((error as NgsiLdError).errorType).toBe("BadRequestData");
  if (message) expect((error as NgsiLdError).detail).toMatch(message);
};

describe("NGSI-LD query language: comparisons (4.9)", () => {
  const e = {
    temperature: 21.5,
    name: "Farm One",
    open: true,
    tags: ["a", "b"],
    seen: "2024-05-01T10:00:00Z",
  };
  it.each([
    ["temperature==21.5", true],
    ["temperature!=21.5", false],
    ["temperature>21", true],
    ["temperature>=21.5", true],
    ["temperature<21.5", false],
    ["temperature<=21.5", true],
    ['name=="Farm One"', true],
    ['name!="Farm One"', false],
    ["open==true", true],
    ["open==false", false],
    ["temperature==20..22", true],
    ["temperature==22..30", false],
    ["temperature!=22..30", true],
    ["temperature==1,2,21.5", true],
    ["temperature!=1,2,3", true],
    ['tags=="b"', true],
    ['tags=="c"', false],
    ["name~=^Farm", true],
    ["name~=(?i)farm one", true],
    ["name!~=^Farm", false],
    ["seen>2024-01-01T00:00:00Z", true],
    ["seen<2024-01-01T00:00:00Z", false],
    ["seen==2024-04-01T00:00:00Z..2024-06-01T00:00:00Z", true],
    ["missing", false],
    ["temperature", true],
    ["missing!=3", false],
  ])("%s → %s", (q, expected) => expect(matches(q, e)).toBe(expected));
});

describe("NGSI-LD query language: logic, paths, precedence", () => {
  const e = {
    temperature: 21.5,
    address: { streetAddress: "Main 1", city: "Berlin", geo: { zip: 10115 } },
    owner: { type: "Relationship", object: "urn:ngsi-ld:Person:p1" },
    speed: {
      type: "Property",
      value: 80,
      [`${V}accuracy`]: { type: "Property", value: 0.9 },
      observedAt: "2024-01-01T00:00:00Z",
    },
  };
  it.each([
    ["temperature>20;temperature<22", true],
    ["temperature>22;temperature<30", false],
    ["temperature>30|temperature<22", true],
    // ";" binds tighter than "|": false;x | true
    ["temperature>30;temperature<22|temperature==21.5", true],
    ["temperature>30;(temperature<22|temperature==21.5)", false],
    ["((temperature>20))", true],
    ['address[city]=="Berlin"', true],
    ["address[geo][zip]==10115", true],
    ['address[city]=="Paris"', false],
    ["owner==urn:ngsi-ld:Person:p1", true],
    ['owner=="urn:ngsi-ld:Person:p2"', false],
    ["speed.accuracy>0.5", true],
    ["speed.accuracy>0.95", false],
    ["speed.observedAt>2023-12-31T00:00:00Z", true],
    [`${V}temperature==21.5`, true],
  ])("%s → %s", (q, expected) => expect(matches(q, e)).toBe(expected));
});

describe("NGSI-LD query language: syntax errors are BadRequestData", () => {
  it.each([
    ["temperature=5", /unknown operator "="/],
    ["temperature=~5", /unknown operator/],
    ["temperature<>5", /./],
    ["(temperature>5", /missing \)/],
    ["temperature>5)", /unexpected/],
    ["temperature>", /expected a value/],
    ["temperature>1,2", /cannot take a list/],
    ["temperature>1..2", /cannot take a range/],
    ['name~="(unclosed"', /not a regular expression this broker runs: .*missing closing \)/],
    ['name=="open', /unterminated string/],
    ["", /empty/],
    [";", /attribute name/],
    ["a>true", /booleans/],
  ])("%s", (q, message) => rejects(q, message));

  it("refuses absurd nesting and length", () => {
    rejects("(".repeat(40) + "a" + ")".repeat(40), /deeply nested/);
    rejects("a==1;".repeat(1000) + "a==1", /longer than/);
  });
});

describe("q translated to SQL", () => {
  const tr = (q: string) => {
    const node = parseQuery(q);
    return translate(node, new Map(pathsOf(node).map((p) => [p, resolvePath(p, expand)])));
  };
  it("answers numbers, booleans, string equality and existence exactly in SQL", () => {
    for (const q of [
      "temperature>20",
      "temperature==1,2,3",
      'name=="x"',
      "open==true",
      "temperature",
      "a>1;b<2",
      "a>1|b<2",
      "speed.accuracy>0.5",
      "address[city]==3",
      "a!=3",
    ])
      expect(tr(q).exact, q).toBe(true);
  });
  it("leaves patterns, dates, string ordering and ranges to the JS evaluator, with a prefilter", () => {
    for (const q of [
      "name~=x",
      "seen>2024-01-01T00:00:00Z",
      'name>"a"',
      "temperature==1..3",
      "speed.observedAt>2024-01-01T00:00:00Z",
    ]) {
      const t = tr(q);
      expect(t.exact, q).toBe(false);
      expect(t.where, q).toBeDefined();
    }
    // An OR with a part SQL cannot judge exactly is a prefilter too.
    expect(tr("a>1|name~=x").exact).toBe(false);
    expect(tr("a>1;name~=x").where).toBeDefined();
    expect(tr("a>1;name~=x").exact).toBe(false);
  });
});
