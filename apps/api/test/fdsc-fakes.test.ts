import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakePap, type FakePap } from "../../../test/fakes/odrl-pap.ts";
import {
  startFakeCredentialsConfig,
  type FakeCredentialsConfig,
} from "../../../test/fakes/credentials-config.ts";
import {
  startFakeTrustedIssuersList,
  type FakeTrustedIssuersList,
} from "../../../test/fakes/trusted-issuers-list.ts";

// The fakes of the FDSC trust layer answer as notes/fdsc.md says the real services do (where they
// differ from their OpenAPI documents, as the real ones): a test of Orrery against them is only
// worth what they are.

let pap: FakePap;
let ccs: FakeCredentialsConfig;
let verifier: FakeCredentialsConfig;
let til: FakeTrustedIssuersList;
beforeAll(async () => {
  [pap, ccs, verifier, til] = await Promise.all([
    startFakePap({ validation: true }),
    startFakeCredentialsConfig({ variant: "ccs" }),
    startFakeCredentialsConfig({ variant: "verifier" }),
    startFakeTrustedIssuersList(),
  ]);
});
afterAll(() => Promise.all([pap, ccs, verifier, til].map((f) => f?.close())));

const send = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

/** The connector's LOCAL.MD example: role OPERATOR of an OperatorCredential may read K8SCluster entities. */
const allowRead = {
  "@context": { odrl: "http://www.w3.org/ns/odrl/2/" },
  "odrl:uid": "https://mp-operation.org/policy/common/allowRead",
  "@type": "odrl:Policy",
  "odrl:permission": {
    "odrl:assigner": { "@id": "https://www.mp-operation.org/" },
    "odrl:target": {
      "@type": "odrl:AssetCollection",
      "odrl:source": "urn:asset",
      "odrl:refinement": [
        {
          "@type": "odrl:Constraint",
          "odrl:leftOperand": "ngsi-ld:entityType",
          "odrl:operator": { "@id": "odrl:eq" },
          "odrl:rightOperand": "K8SCluster",
        },
      ],
    },
    "odrl:assignee": {
      "@type": "odrl:PartyCollection",
      "odrl:source": "urn:user",
      "odrl:refinement": {
        "@type": "odrl:LogicalConstraint",
        "odrl:and": [
          {
            "@type": "odrl:Constraint",
            "odrl:leftOperand": { "@id": "vc:role" },
            "odrl:operator": { "@id": "odrl:hasPart" },
            "odrl:rightOperand": { "@value": "OPERATOR", "@type": "xsd:string" },
          },
          {
            "@type": "odrl:Constraint",
            "odrl:leftOperand": { "@id": "vc:type" },
            "odrl:operator": { "@id": "odrl:hasPart" },
            "odrl:rightOperand": { "@value": "OperatorCredential", "@type": "xsd:string" },
          },
        ],
      },
    },
    "odrl:action": { "@id": "odrl:read" },
  },
};

const jwt = (vc: unknown) =>
  `Bearer x.${Buffer.from(JSON.stringify({ verifiableCredential: vc })).toString("base64url")}.y`;

describe("the fake ODRL-PAP answers as SEAMWARE/odrl-pap 1.4.3 does", () => {
  it("creates with the Rego as text and the bare id in Location, lists without a total, reads odrl as a string", async () => {
    const created = await send(pap.url, "POST", "/policy", allowRead);
    expect(created.status).toBe(200);
    expect(created.headers.get("content-type")).toMatch(/^text\/plain/);
    const id = created.headers.get("location")!;
    expect(id).toMatch(/^[a-z]{10}$/);
    expect(await created.text()).toMatch(new RegExp(`^package policy\\.${id}\\n[\\s\\S]*is_allowed if \\{`));
    const read = (await (await send(pap.url, "GET", `/policy/${id}`)).json()) as Record<string, unknown>;
    expect(read).toMatchObject({ id, "odrl:uid": allowRead["odrl:uid"] });
    expect(typeof read.odrl).toBe("string");
    expect(JSON.parse(read.odrl as string)["odrl:permission"]["odrl:action"]).toEqual({ "@id": "odrl:read" });
    const byUid = await send(pap.url, "GET", `/policy/odrl/${encodeURIComponent(allowRead["odrl:uid"])}`);
    expect(((await byUid.json()) as { id: string }).id).toBe(id);
    const list = (await (await send(pap.url, "GET", "/policy?page=0&pageSize=25")).json()) as unknown[];
    expect(Array.isArray(list)).toBe(true);
    expect(
      (await send(pap.url, "GET", "/policy?page=1&pageSize=25").then((r) => r.json())) as unknown[],
    ).toEqual([]);
    const missing = await send(pap.url, "GET", "/policy/nosuchpolicy");
    expect([missing.status, await missing.text()]).toEqual([404, ""]);
    expect((await send(pap.url, "DELETE", "/policy/nosuchpolicy")).status).toBe(204);
    expect((await send(pap.url, "DELETE", `/policy/${id}`)).status).toBe(204);
    expect((await send(pap.url, "GET", `/policy/${id}`)).status).toBe(404);
  });

  it("refuses invalid ODRL with the mapper's message in {error,status,message,timestamp}, and main with a plain 409", async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...allowRead, "@type": "odrl:Set" }, "The odrl does not contain valid policies."],
      [{ ...allowRead, "odrl:uid": undefined }, "The policy does not contain a valid UID."],
      [{ ...allowRead, "odrl:permission": undefined }, "The policy has no permission."],
      [
        { ...allowRead, "odrl:permission": { ...allowRead["odrl:permission"], "odrl:action": undefined } },
        "The permission does not contain an action.",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await send(pap.url, "POST", "/policy", body);
      expect(res.status).toBe(400);
      const problem = (await res.json()) as Record<string, unknown>;
      expect(problem).toMatchObject({ error: "Bad Request", status: 400, message });
      expect(typeof problem.timestamp).toBe("number");
    }
    const main = await send(pap.url, "PUT", "/policy/main", allowRead);
    expect([main.status, await main.text()]).toEqual([409, "Policy `main` cannot be manually modified."]);
  });

  it("has services: a duplicate is 400 (not the spec's 409), an unknown one a bare-text 404, list and show disagree on policyPath", async () => {
    const made = await send(pap.url, "POST", "/service", { id: "shelves" });
    const { policyPath } = (await made.json()) as { policyPath: string };
    expect(policyPath).toMatch(/^[a-z]{10}\/main$/);
    const twice = await send(pap.url, "POST", "/service", { id: "shelves" });
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ error: "Bad Request", status: 400 });
    expect((await send(pap.url, "POST", "/service", { id: "data" })).status).toBe(400);
    expect(await send(pap.url, "GET", "/service").then((r) => r.json())).toContainEqual({
      id: "shelves",
      policyPath: "shelves/main",
    });
    const unknown = await send(pap.url, "POST", "/service/nowhere/policy", allowRead);
    expect([unknown.status, await unknown.text()]).toEqual([404, "Service nowhere does not exist."]);
    const inService = await send(pap.url, "POST", "/service/shelves/policy", allowRead);
    const id = inService.headers.get("location")!;
    expect((await send(pap.url, "GET", "/service/shelves").then((r) => r.json())) as object).toMatchObject({
      id: "shelves",
      policyPath,
      policies: [expect.objectContaining({ id })],
    });
    expect((await send(pap.url, "DELETE", "/service/shelves")).status).toBe(204);
    expect((await send(pap.url, "GET", `/policy/${id}`)).status).toBe(404);
  });

  it("validates a test request with its OPA: the role and credential type of the bearer token decide", async () => {
    const testRequest = (roles: string[]) => ({
      method: "GET",
      host: "mp-data-service.127.0.0.1.nip.io",
      path: "/ngsi-ld/v1/entities?type=K8SCluster",
      protocol: "https",
      headers: {
        authorization: jwt({
          type: ["VerifiableCredential", "OperatorCredential"],
          credentialSubject: { roles: [{ target: "did:web:provider", names: roles }] },
        }),
      },
    });
    const answer = (roles: string[]) =>
      send(pap.url, "POST", "/validate", { policy: allowRead, testRequest: testRequest(roles) }).then((r) =>
        r.json(),
      );
    expect(await answer(["OPERATOR"])).toEqual({ allow: true });
    expect(await answer(["READER"])).toMatchObject({ allow: false, explanation: expect.any(Array) });
    const mappings = (await send(pap.url, "GET", "/mappings").then((r) => r.json())) as {
      actions: unknown[];
    };
    expect(mappings.actions).toContainEqual(expect.objectContaining({ name: "odrl:read" }));
  });
});

const service = (id?: string) => ({
  ...(id ? { id } : {}),
  defaultOidcScope: "operator",
  authorizationType: "DEEPLINK",
  oidcScopes: {
    operator: {
      credentials: [
        {
          type: "OperatorCredential",
          trustedParticipantsLists: ["https://tir.127.0.0.1.nip.io"],
          trustedIssuersLists: ["http://trusted-issuers-list:8080"],
          jwtInclusion: { enabled: true, fullInclusion: true },
        },
      ],
    },
  },
});

describe("the fake credentials configuration service answers as CCS 3.4 and the verifier's /service do", () => {
  it("standalone: 201 with an empty body, 409 ProblemDetails, empty 404, pageSize = items, 500 on an unknown scope", async () => {
    const made = await send(ccs.url, "POST", "/service", service("tpp-service"));
    expect([made.status, await made.text(), made.headers.get("location")]).toEqual([
      201,
      "",
      "/service/tpp-service",
    ]);
    const generated = await send(ccs.url, "POST", "/service", service());
    expect(generated.headers.get("location")).toMatch(/^\/service\/.+/);
    expect(await send(ccs.url, "POST", "/service", service("tpp-service")).then((r) => r.json())).toEqual({
      status: 409,
      title: "Conflict.",
      detail: "The service with id tpp-service already exists.",
      instance: "tpp-service",
    });
    const bad = await send(ccs.url, "POST", "/service", { ...service("x"), defaultOidcScope: "other" });
    expect(await bad.json()).toEqual({
      status: 400,
      title: "Received an invalid issuer configuration.",
      detail: "Default OIDC scope must exist in OIDC scopes array.",
    });
    const page = (await send(ccs.url, "GET", "/service?pageSize=100&page=0").then((r) => r.json())) as any;
    expect(page).toMatchObject({ total: 2, pageNumber: 0, pageSize: 2 });
    const missing = await send(ccs.url, "GET", "/service/nothing");
    expect([missing.status, await missing.text()]).toEqual([404, ""]);
    expect(await send(ccs.url, "GET", "/service/tpp-service/scope").then((r) => r.json())).toEqual([
      "OperatorCredential",
    ]);
    expect((await send(ccs.url, "GET", "/service/tpp-service/scope?oidcScope=nope")).status).toBe(500);
    const renamed = await send(ccs.url, "PUT", "/service/tpp-service", service("other"));
    expect(await renamed.json()).toMatchObject({ detail: "The id of a service cannot be updated." });
  });

  it("verifier: 201 with the service, RFC 7807 typed problems, id required, pageSize echoed, 404 Scope not found", async () => {
    const made = await send(verifier.url, "POST", "/service", service("tpp-service"));
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({ id: "tpp-service", defaultOidcScope: "operator" });
    const noId = await send(verifier.url, "POST", "/service", service());
    expect(await noId.json()).toMatchObject({
      type: "https://fiware.github.io/VCVerifier/problem/validation-error",
      status: 400,
    });
    const missing = await send(verifier.url, "GET", "/service/x");
    expect(await missing.json()).toMatchObject({
      type: "https://fiware.github.io/VCVerifier/problem/not-found",
      title: "Service not found",
      status: 404,
      detail: 'No service with id "x" exists.',
    });
    expect(
      await send(verifier.url, "GET", "/service?pageSize=10&page=0").then((r) => r.json()),
    ).toMatchObject({
      total: 1,
      pageSize: 10,
    });
    const scope = await send(verifier.url, "GET", "/service/tpp-service/scope?oidcScope=nope");
    expect([scope.status, ((await scope.json()) as { title: string }).title]).toEqual([
      404,
      "Scope not found",
    ]);
  });
});

describe("the fake trusted issuers list answers as TIL 0.8.1 does", () => {
  const issuer = (did: string) => ({
    did,
    credentials: [
      {
        validFor: { from: "2017-07-21T17:32:28Z", to: "2023-07-21T17:32:28Z" },
        credentialsType: "CustomerCredential",
        claims: [{ name: "roles", allowedValues: ["GOLD_CUSTOMER", "STANDARD_CUSTOMER"] }],
      },
    ],
  });
  it("creates with Location on the TIR API, pages /issuer by page number and /v4/issuers with page[after] as an index", async () => {
    for (const did of ["did:web:c.org", "did:web:a.org", "did:web:b.org"]) {
      const made = await send(til.url, "POST", "/issuer", issuer(did));
      expect([made.status, made.headers.get("location")]).toEqual([201, `/v4/issuers/${did}`]);
    }
    expect(await send(til.url, "POST", "/issuer", issuer("did:web:a.org")).then((r) => r.json())).toEqual({
      status: 409,
      title: "Conflict.",
      detail: "Issuer already exists.",
      instance: "did:web:a.org",
    });
    expect(await send(til.url, "GET", "/issuer?pageSize=2&page=1").then((r) => r.json())).toEqual({
      total: 3,
      pageSize: 1,
      page: 1,
      items: ["did:web:c.org"],
    });
    expect((await send(til.url, "GET", "/issuer?pageSize=101")).status).toBe(400);
    const tir = (await send(til.url, "GET", "/v4/issuers/?page[size]=2&page[after]=1").then((r) =>
      r.json(),
    )) as any;
    expect(tir.items).toEqual([
      { did: "did:web:c.org", href: expect.stringMatching(/\/v4\/issuers\/did:web:c\.org$/) },
    ]);
    expect(tir.links.prev).toMatch(/page%5Bafter%5D=0&page%5Bsize%5D=2$/);
    const attributes = (await send(til.url, "GET", "/v4/issuers/did:web:a.org").then((r) => r.json())) as any;
    expect(attributes.attributes[0]).toMatchObject({ issuerType: "Undefined" });
    expect(JSON.parse(Buffer.from(attributes.attributes[0].body, "base64").toString())).toMatchObject({
      credentialsType: "CustomerCredential",
    });
    const mismatch = await send(til.url, "PUT", "/issuer/did:web:a.org", issuer("did:web:b.org"));
    expect(await mismatch.json()).toMatchObject({
      status: 400,
      detail: "Did does not match the issuer object.",
    });
    const gone = await send(til.url, "GET", "/issuer/did:web:none.org");
    expect([gone.status, await gone.text()]).toEqual([404, ""]);
  });
});
