import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startFakeTrustedIssuersList,
  type FakeTrustedIssuersList,
} from "../../../test/fakes/trusted-issuers-list.ts";
import { listen, sendJson, type Listening } from "../../../test/fakes/http.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

// The issuers of a trusted issuers list, managed through Orrery against the fake TIL (0.8.1
// management API, TIR read API), and listed from the TIR API of a 0.8.0 that has no GET /issuer.

const ctx = useTestApp();
let til: FakeTrustedIssuersList;
let old: Listening;
let path: string;
let oldPath: string;

async function ok(method: string, url: string, body?: unknown) {
  const res = await ctx.api(method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const issuer = (did: string, roles = ["OPERATOR"]) => ({
  did,
  credentials: [
    {
      credentialsType: "OperatorCredential",
      validFor: { from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" },
      claims: [{ name: "roles", path: "$.roles[*].names[*]", allowedValues: roles }],
    },
  ],
});

const listRecord = async (name: string, url: string) =>
  (
    await ok("POST", "/api/trusted-issuers-lists", {
      ...samplePayload("trusted-issuers-lists", () => ""),
      name,
      host: "127.0.0.1",
      port: Number(new URL(url).port),
    })
  ).id as string;

beforeAll(async () => {
  til = await startFakeTrustedIssuersList();
  // A TIL 0.8.0: no GET /issuer (Micronaut's 405 for a method the path does not take); its TIR API lists.
  old = await listen((req, res, url) => {
    if (url.pathname === "/issuer" && req.method === "GET")
      return sendJson(res, 405, {
        message: "Method Not Allowed",
        _embedded: { errors: [{ message: "Method [GET] not allowed" }] },
      });
    if (url.pathname === "/v4/issuers") {
      const page = Number(url.searchParams.get("page[after]"));
      const size = Number(url.searchParams.get("page[size]"));
      const all = Array.from({ length: 150 }, (_x, i) => `did:web:issuer-${String(i).padStart(3, "0")}.org`);
      const items = all
        .slice(page * size, page * size + size)
        .map((d) => ({ did: d, href: `/v4/issuers/${d}` }));
      return sendJson(res, 200, {
        self: "/v4/issuers",
        items,
        total: all.length,
        pageSize: items.length,
        links: {},
      });
    }
    res.writeHead(404).end();
  });
  path = `/api/trusted-issuers-lists/${await listRecord("Provider TIL", til.url)}/issuers`;
  oldPath = `/api/trusted-issuers-lists/${await listRecord("Old TIL", old.url)}/issuers`;
});
afterAll(() => Promise.all([til?.close(), old?.close()]));

describe(`trusted issuers of a list (${driver})`, () => {
  it("are added, listed, shown, edited and removed in the TIL", async () => {
    expect(await ok("GET", path)).toEqual([]);
    const made = await ctx.api("POST", path, issuer("did:web:operator.example.org"));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual(issuer("did:web:operator.example.org"));
    expect(made.headers.location).toBe(`${path}/${encodeURIComponent("did:web:operator.example.org")}`);
    await ok("POST", path, issuer("did:key:z6Mk.*+?(|\\"));
    expect(await ok("GET", path)).toEqual([
      { did: "did:key:z6Mk.*+?(|\\" },
      { did: "did:web:operator.example.org" },
    ]);
    expect(til.issuers.get("did:key:z6Mk.*+?(|\\")?.did).toBe("did:key:z6Mk.*+?(|\\");
    expect(await ok("GET", `${path}/${encodeURIComponent("did:key:z6Mk.*+?(|\\")}`)).toMatchObject({
      did: "did:key:z6Mk.*+?(|\\",
    });

    const edited = await ok(
      "PUT",
      `${path}/did:web:operator.example.org`,
      issuer("did:web:operator.example.org", ["OPERATOR", "READER"]),
    );
    expect(edited.credentials[0].claims[0].allowedValues).toEqual(["OPERATOR", "READER"]);
    expect(
      (til.issuers.get("did:web:operator.example.org")!.credentials[0] as any).claims[0].allowedValues,
    ).toEqual(["OPERATOR", "READER"]);
    expect((await ctx.api("DELETE", `${path}/did:web:operator.example.org`)).status).toBe(204);
    const gone = await ctx.api("GET", `${path}/did:web:operator.example.org`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("til.noIssuer");
  });

  it("says what the list refuses: a DID already there, another DID on edit, a bad DID or date", async () => {
    await ok("POST", path, issuer("did:web:twice.example.org"));
    const twice = await ctx.api("POST", path, issuer("did:web:twice.example.org"), {
      "accept-language": "fr",
    });
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe(
      "La liste des émetteurs de confiance Provider TIL a déjà l’émetteur did:web:twice.example.org\u00a0: modifiez-le plutôt.",
    );
    const other = await ctx.api(
      "PUT",
      `${path}/did:web:twice.example.org`,
      issuer("did:web:other.example.org"),
    );
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([expect.objectContaining({ path: "did", code: "til.otherDid" })]);
    expect((await ctx.api("POST", path, issuer("not-a-did"))).status).toBe(400);
    const badDate = issuer("did:web:date.example.org");
    badDate.credentials[0]!.validFor.from = "yesterday";
    expect((await ctx.api("POST", path, badDate)).status).toBe(400);
    expect(
      (await ctx.api("PUT", `${path}/did:web:none.example.org`, issuer("did:web:none.example.org"))).status,
    ).toBe(404);
  });

  it("are listed from the TIR API of a TIL without GET /issuer, page index after page index", async () => {
    const listed = await ok("GET", oldPath);
    expect(listed).toHaveLength(150);
    expect(listed.at(-1)).toEqual({ did: "did:web:issuer-149.org" });
  });
});
