import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { odrlOf } from "@orrery/model/odrl";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  startFakeCredentialsConfig,
  type FakeCredentialsConfig,
} from "../../../test/fakes/credentials-config.ts";
import { startFakePap, type FakePap } from "../../../test/fakes/odrl-pap.ts";
import {
  startFakeTrustedIssuersList,
  type FakeTrustedIssuersList,
} from "../../../test/fakes/trusted-issuers-list.ts";

// The fakes of the FDSC trust layer, driven over HTTP with the requests Orrery makes
// (apps/api/src/fdsc/*.ts), checked against the services' official OpenAPI documents
// (test/fixtures/fdsc-openapi, pinned as in notes/fdsc.md §0): each request body against the
// operation's request schema, each answer's status against those the operation declares, its media
// type and body against the response schema. Where the real service differs from its document
// (notes/fdsc.md §1, §3, §4), the test asserts the real behaviour and names the exact difference,
// so that a fake "fixed" towards the document fails here.

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
// Formats the documents name that are not JSON Schema's: a URL (CCS), a DID (TIR), and the PAP's
// uid "format" (a link to RFC 3987, i.e. an IRI: any string the PAP takes as an id).
ajv.addFormat("url", ajv.formats.uri!);
ajv.addFormat("did", /^did:[a-z0-9]+:\S+$/);
ajv.addFormat("https://datatracker.ietf.org/doc/html/rfc3987", true);

type Json = Record<string, unknown>;
interface Operation {
  parameters?: Json[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}
interface Api {
  name: string;
  paths: Record<string, Record<string, Operation>>;
  parameters: Record<string, Json>;
}

/**
 * OpenAPI 3.0 schemas as JSON Schema: refs to components become refs to the document's
 * definitions. A bare `type: object` (no properties) is what the services' generated Java models
 * read as `java.lang.Object`, any JSON value, and what the documents' own examples put there
 * (TIL `allowedValues` [true, 12, "GOLD_CUSTOMER"], CCS `trustedParticipantsLists` URL strings).
 */
function jsonSchema(value: unknown, id: string): unknown {
  if (Array.isArray(value)) return value.map((v) => jsonSchema(v, id));
  if (!value || typeof value !== "object") return value;
  const o = value as Json;
  if (o.type === "object" && !o.properties && o.additionalProperties === undefined) return {};
  // OpenAPI 3.0's `nullable` beside a `$ref` (CCS presentationDefinition, dcql).
  if (o.nullable === true && typeof o.$ref === "string") {
    const { nullable: _nullable, ...rest } = o;
    return { anyOf: [jsonSchema(rest, id), { type: "null" }] };
  }
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string"
        ? v.replace(/^#\/components\/(schemas|parameters)\//, `${id}#/definitions/$1_`)
        : jsonSchema(v, id),
    ]),
  );
}

function load(file: string): Api {
  const doc = parse(
    readFileSync(new URL(`../../../test/fixtures/fdsc-openapi/${file}`, import.meta.url), "utf8"),
  ) as { paths: Api["paths"]; components: { schemas: Json; parameters?: Json } };
  const id = `https://orrery.invalid/fdsc-openapi/${file}`;
  const converted = (kind: "schemas" | "parameters") =>
    Object.fromEntries(
      Object.entries(doc.components[kind] ?? {}).map(([name, s]) => [`${kind}_${name}`, jsonSchema(s, id)]),
    );
  ajv.addSchema({ $id: id, definitions: converted("schemas") }, id);
  return {
    name: file,
    paths: jsonSchema(doc.paths, id) as Api["paths"],
    parameters: converted("parameters") as Record<string, Json>,
  };
}

const papApi = load("odrl.yaml");
const ccsApi = load("credentials-config-service.yaml");
const tilApi = load("trusted-issuers-list.yaml");
const tirApi = load("trusted-issuers-registry.yaml");

const compiled = new Map<string, ValidateFunction>();
const errorsOf = (schema: Json, value: unknown): string[] => {
  const key = JSON.stringify(schema);
  const validate = compiled.get(key) ?? ajv.compile(schema);
  compiled.set(key, validate);
  return validate(value)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim());
};

function operation(api: Api, method: string, template: string): Operation {
  const found = api.paths[template]?.[method.toLowerCase()];
  if (!found) throw new Error(`${api.name} declares no ${method} ${template}`);
  return found;
}

/** What a request breaks in the document: its query parameters and JSON body. */
function requestProblems(api: Api, method: string, template: string, query: URLSearchParams, body?: unknown) {
  const op = operation(api, method, template);
  const problems: string[] = [];
  for (const p of op.parameters ?? []) {
    const ref = typeof p.$ref === "string" ? p.$ref.split("#/definitions/")[1]! : undefined;
    const param = (ref ? api.parameters[ref] : p) as { name: string; in: string; schema: Json };
    const raw = param.in === "query" ? query.get(param.name) : null;
    if (raw === null) continue;
    const value = param.schema.type === "integer" ? Number(raw) : raw;
    problems.push(...errorsOf(param.schema, value).map((e) => `query ${param.name}: ${e}`));
  }
  const schema = op.requestBody?.content["application/json"]?.schema;
  if (body !== undefined && !schema) problems.push("a body where none is declared");
  if (schema && body !== undefined) problems.push(...errorsOf(schema, body).map((e) => `request ${e}`));
  return problems;
}

interface Seen {
  status: number;
  type: string | null;
  location: string | null;
  text: string;
  body: unknown;
}

/** What an answer breaks in the document: an undeclared status, media type, or a body off its schema. */
function answerProblems(api: Api, method: string, template: string, seen: Seen): string[] {
  const declared = operation(api, method, template).responses;
  const response = declared[String(seen.status)];
  if (!response) return [`status ${seen.status} not declared (${Object.keys(declared).join(", ")})`];
  const content = response.content;
  const type = seen.type?.split(";")[0]!.trim() ?? "";
  if (!content) return seen.text ? [`a ${type} body where none is declared`] : [];
  if (!seen.text) return [`an empty body where ${Object.keys(content).join(", ")} is declared`];
  const media = content[type];
  if (!media) return [`media type ${type} not declared (${Object.keys(content).join(", ")})`];
  return errorsOf(media.schema, type === "application/json" ? seen.body : seen.text);
}

/**
 * One exchange as Orrery's `call` (apps/api/src/fdsc/peer.ts) makes it, checked against the
 * document at `template`: the request must conform, the answer's problems are returned.
 */
async function exchange(
  base: string,
  api: Api,
  method: string,
  template: string,
  path: string,
  body?: unknown,
  { offDocument = false } = {},
) {
  const url = new URL(`${base}${path}`);
  // Orrery's requests conform; a test may send one that does not, to see the refusal.
  if (!offDocument) expect(requestProblems(api, method, template, url.searchParams, body)).toEqual([]);
  else expect(requestProblems(api, method, template, url.searchParams, body)).not.toEqual([]);
  const response = await fetch(url, {
    method,
    headers: {
      accept: "application/json, text/plain",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text || null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // text as it is (the PAP's Rego)
  }
  const seen: Seen = {
    status: response.status,
    type: response.headers.get("content-type"),
    location: response.headers.get("location"),
    text,
    body: parsed,
  };
  return { ...seen, problems: answerProblems(api, method, template, seen) };
}

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

describe("fake ODRL-PAP against api/odrl.yaml", () => {
  // What the role synchronisation writes (apps/api/src/fdsc/role-sync.ts): the role of a credential
  // may read and modify the service's entity type.
  const odrl = odrlOf({
    uid: "urn:orrery:policy:operator-reads-K8SCluster",
    assignee: { kind: "role", role: "OPERATOR", credentialType: "OperatorCredential" },
    actions: ["odrl:read", "odrl:modify"],
    target: { kind: "entityType", entityType: "K8SCluster" },
    constraints: [],
  });

  it("creates, lists, shows, replaces and deletes global policies as declared", async () => {
    const made = await exchange(pap.url, papApi, "POST", "/policy", "/policy", odrl);
    expect(made.problems).toEqual([]);
    expect(made.text).toMatch(/^package policy\.[a-z]{10}\n/);
    // Location is the bare id (notes/fdsc.md §1); the document only says "a string".
    const id = made.location!;
    expect(id).toMatch(/^[a-z]{10}$/);

    const listed = await exchange(pap.url, papApi, "GET", "/policy", "/policy?page=0&pageSize=100");
    expect(listed.problems).toEqual([]);
    expect(listed.body).toEqual([expect.objectContaining({ id, "odrl:uid": odrl["odrl:uid"] })]);

    const shown = await exchange(pap.url, papApi, "GET", "/policy/{id}", `/policy/${id}`);
    expect(shown.problems).toEqual([]);
    expect(typeof (shown.body as Json).odrl).toBe("string");

    const replaced = await exchange(pap.url, papApi, "PUT", "/policy/{id}", `/policy/${id}`, odrl);
    expect(replaced.problems).toEqual([]);
    expect(replaced.location).toBe(id);

    expect((await exchange(pap.url, papApi, "DELETE", "/policy/{id}", `/policy/${id}`)).problems).toEqual([]);
    const gone = await exchange(pap.url, papApi, "GET", "/policy/{id}", `/policy/${id}`);
    expect([gone.status, gone.problems]).toEqual([404, []]);
    // Real DELETEs answer 204 whether or not the policy exists (§1); 204 is declared.
    const again = await exchange(pap.url, papApi, "DELETE", "/policy/{id}", `/policy/${id}`);
    expect([again.status, again.problems]).toEqual([204, []]);
  });

  it("writes the policies of a PAP service, made on the first write as Orrery does", async () => {
    const sid = "orrery-workspace";
    const path = `/service/${sid}/policy/reads`;
    // Unknown service: the real PAP answers 404 with the bare text "Service X does not exist."; the
    // document declares only 200 for this PUT (notes/fdsc.md §1).
    const before = await exchange(pap.url, papApi, "PUT", "/service/{service-id}/policy/{id}", path, odrl);
    expect([before.status, before.text, before.problems]).toEqual([
      404,
      `Service ${sid} does not exist.`,
      ["status 404 not declared (200, 409)"],
    ]);
    const made = await exchange(pap.url, papApi, "POST", "/service", "/service", { id: sid });
    expect(made.problems).toEqual([]);
    expect((made.body as Json).policyPath).toMatch(/^[a-z]{10}\/main$/);

    const written = await exchange(pap.url, papApi, "PUT", "/service/{service-id}/policy/{id}", path, odrl);
    expect([written.status, written.location, written.problems]).toEqual([200, "reads", []]);
    const read = await exchange(pap.url, papApi, "GET", "/service/{service-id}/policy/{id}", path);
    expect(read.problems).toEqual([]);
    const listed = await exchange(
      pap.url,
      papApi,
      "GET",
      "/service/{service-id}/policy",
      `/service/${sid}/policy?page=0&pageSize=100`,
    );
    expect([listed.problems, (listed.body as unknown[]).length]).toEqual([[], 1]);
    const created = await exchange(
      pap.url,
      papApi,
      "POST",
      "/service/{service-id}/policy",
      `/service/${sid}/policy`,
      odrl,
    );
    expect(created.problems).toEqual([]);
    const deleted = await exchange(pap.url, papApi, "DELETE", "/service/{service-id}/policy/{id}", path);
    expect(deleted.problems).toEqual([]);

    // A second create of the same service: the document says 409 without a body, the real PAP
    // answers 400 with its JSON error (IllegalArgumentException, notes/fdsc.md §1 "Oddities").
    const duplicate = await exchange(pap.url, papApi, "POST", "/service", "/service", { id: sid });
    expect(duplicate.problems).toEqual(["status 400 not declared (200, 409)"]);
    expect(duplicate.body).toEqual({
      error: "Bad Request",
      status: 400,
      message: expect.stringContaining(sid) as unknown,
      timestamp: expect.any(Number) as unknown,
    });
  });

  it("refuses invalid ODRL and the main policy as the real PAP does, not as declared", async () => {
    // Invalid ODRL: 400 {error, status, message, timestamp} since 1.4.3 (notes/fdsc.md §1 Errors);
    // the document declares no error for this operation. The body itself conforms (a free object).
    const invalid = await exchange(pap.url, papApi, "POST", "/policy", "/policy", {
      ...odrl,
      "@type": "odrl:Set",
    });
    expect(invalid.problems).toEqual(["status 400 not declared (200)"]);
    expect((invalid.body as Json).message).toBe("The odrl does not contain valid policies.");
    // `main`: 409 as declared, but with a plain-text body where the document declares none.
    const main = await exchange(pap.url, papApi, "PUT", "/policy/{id}", "/policy/main", odrl);
    expect([main.status, main.text]).toEqual([409, "Policy `main` cannot be manually modified."]);
    expect(main.problems).toEqual(["a text/plain body where none is declared"]);
  });

  it("answers /validate as declared", async () => {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const token = `${part({ alg: "none" })}.${part({
      verifiableCredential: {
        type: ["VerifiableCredential", "OperatorCredential"],
        credentialSubject: { roles: [{ target: "did:web:provider", names: ["OPERATOR"] }] },
      },
    })}.`;
    // The body of apps/api/src/fdsc/policy-routes.ts' validate route.
    const asked = (method: string) => ({
      policy: odrl,
      testRequest: {
        method,
        host: "orrery.invalid",
        path: "/ngsi-ld/v1/entities?type=K8SCluster",
        protocol: "https",
        headers: { authorization: `Bearer ${token}` },
        body: {},
      },
    });
    const allowed = await exchange(pap.url, papApi, "POST", "/validate", "/validate", asked("GET"));
    expect([allowed.problems, allowed.body]).toEqual([[], { allow: true }]);
    const refused = await exchange(pap.url, papApi, "POST", "/validate", "/validate", asked("DELETE"));
    expect(refused.problems).toEqual([]);
    expect((refused.body as Json).allow).toBe(false);
  });
});

describe("fake credentials configuration service against api/credentials-config-service.yaml", () => {
  // What Orrery's credential configuration route writes: its body with the service's client id.
  const configuration = (id: string) => ({
    defaultOidcScope: "operator",
    authorizationType: "DEEPLINK",
    oidcScopes: {
      operator: {
        credentials: [
          {
            type: "OperatorCredential",
            trustedParticipantsLists: [
              "https://tir.example.org",
              { type: "gaia-x", url: "https://gx.example.org" },
            ],
            trustedIssuersLists: ["http://trusted-issuers-list:8080"],
            holderVerification: { enabled: false, claim: "subject" },
            jwtInclusion: {
              enabled: true,
              fullInclusion: false,
              claimsToInclude: [{ originalKey: "roles" }, { originalKey: "type", newKey: "types" }],
            },
          },
        ],
      },
    },
    id,
  });
  const at = (id: string) => `/service/${encodeURIComponent(id)}`;

  it("standalone: reads, creates, replaces and deletes as declared", async () => {
    const id = "tpp-service";
    const absent = await exchange(ccs.url, ccsApi, "GET", "/service/{id}", at(id));
    expect([absent.status, absent.problems]).toEqual([404, []]);
    const made = await exchange(ccs.url, ccsApi, "POST", "/service", "/service", configuration(id));
    expect([made.status, made.text, made.location, made.problems]).toEqual([201, "", `/service/${id}`, []]);
    const read = await exchange(ccs.url, ccsApi, "GET", "/service/{id}", at(id));
    expect(read.problems).toEqual([]);
    const changed = { ...configuration(id), defaultOidcScope: "operator", authorizationType: "FRONTEND_V2" };
    const replaced = await exchange(ccs.url, ccsApi, "PUT", "/service/{id}", at(id), changed);
    expect([replaced.status, replaced.problems]).toEqual([200, []]);
    const listed = await exchange(ccs.url, ccsApi, "GET", "/service", "/service?pageSize=100&page=0");
    expect(listed.problems).toEqual([]);
    const scope = await exchange(ccs.url, ccsApi, "GET", "/service/{id}/scope", `${at(id)}/scope`);
    expect([scope.body, scope.problems]).toEqual([["OperatorCredential"], []]);
    const invalid = await exchange(ccs.url, ccsApi, "PUT", "/service/{id}", at(id), {
      ...changed,
      defaultOidcScope: "other",
    });
    expect([invalid.status, invalid.problems]).toEqual([400, []]);
    expect(await exchange(ccs.url, ccsApi, "DELETE", "/service/{id}", at(id))).toMatchObject({
      status: 204,
      problems: [],
    });
    expect(await exchange(ccs.url, ccsApi, "DELETE", "/service/{id}", at(id))).toMatchObject({
      status: 404,
      problems: [],
    });
  });

  it("standalone: its conflict and unknown-scope answers differ from the document as notes/fdsc.md §3 says", async () => {
    const id = "twice";
    await exchange(ccs.url, ccsApi, "POST", "/service", "/service", configuration(id));
    const conflict = await exchange(ccs.url, ccsApi, "POST", "/service", "/service", configuration(id));
    // ProblemDetails as declared, but `instance` is the bare id where the document says an absolute URI.
    expect(conflict.status).toBe(409);
    expect(conflict.problems).toEqual(['/instance must match format "uri"']);
    // An unknown scope dereferences null in the Java code: 500, which the document does not declare.
    const scope = await exchange(
      ccs.url,
      ccsApi,
      "GET",
      "/service/{id}/scope",
      `${at(id)}/scope?oidcScope=none`,
    );
    expect(scope.problems).toEqual(["status 500 not declared (200, 404)"]);
  });

  it("verifier variant: the same requests, answered with RFC 7807 bodies and a created service", async () => {
    const id = "verifier-service";
    // Not found: a problem+json body where the document declares an empty 404 (notes/fdsc.md §3).
    const absent = await exchange(verifier.url, ccsApi, "GET", "/service/{id}", at(id));
    expect([absent.status, absent.problems]).toEqual([
      404,
      ["a application/problem+json body where none is declared"],
    ]);
    // Created: 201 with the service JSON where the document declares no body.
    const made = await exchange(verifier.url, ccsApi, "POST", "/service", "/service", configuration(id));
    expect([made.status, made.location, made.problems]).toEqual([
      201,
      `/service/${id}`,
      ["a application/json body where none is declared"],
    ]);
    const read = await exchange(verifier.url, ccsApi, "GET", "/service/{id}", at(id));
    expect(read.problems).toEqual([]);
    const replaced = await exchange(verifier.url, ccsApi, "PUT", "/service/{id}", at(id), configuration(id));
    expect(replaced.problems).toEqual([]);
    // Errors are application/problem+json, the document's ProblemDetails as application/json.
    const invalid = await exchange(verifier.url, ccsApi, "PUT", "/service/{id}", at(id), {
      ...configuration(id),
      defaultOidcScope: "other",
    });
    expect([invalid.status, invalid.problems]).toEqual([
      400,
      ["media type application/problem+json not declared (application/json)"],
    ]);
    const listed = await exchange(verifier.url, ccsApi, "GET", "/service", "/service?pageSize=100&page=0");
    expect(listed.problems).toEqual([]);
    expect(await exchange(verifier.url, ccsApi, "DELETE", "/service/{id}", at(id))).toMatchObject({
      status: 204,
      problems: [],
    });
  });
});

describe("fake trusted issuers list against api/trusted-issuers-list.yaml and api/trusted-issuers-registry.yaml", () => {
  // The README's issuer, as Orrery's issuer routes send it.
  const issuer = (did: string, to = "2030-07-21T17:32:28Z") => ({
    did,
    credentials: [
      {
        validFor: { from: "2017-07-21T17:32:28Z", to },
        credentialsType: "CustomerCredential",
        claims: [
          { name: "roles", allowedValues: ["GOLD_CUSTOMER", "STANDARD_CUSTOMER"] },
          { name: "level", path: "$.level", allowedValues: [true, 12] },
        ],
      },
    ],
  });
  const at = (did: string) => `/issuer/${encodeURIComponent(did)}`;
  const did = "did:web:happypets.org";

  it("manages issuers through /issuer as declared", async () => {
    const made = await exchange(til.url, tilApi, "POST", "/issuer", "/issuer", issuer(did));
    // Location points at the TIR read API, not at /issuer (notes/fdsc.md §4); the document names none.
    expect([made.status, made.location, made.problems]).toEqual([201, `/v4/issuers/${did}`, []]);
    const conflict = await exchange(til.url, tilApi, "POST", "/issuer", "/issuer", issuer(did));
    expect([conflict.status, conflict.problems]).toEqual([409, []]);
    const listed = await exchange(til.url, tilApi, "GET", "/issuer", "/issuer?pageSize=100&page=0");
    expect([listed.body, listed.problems]).toEqual([{ total: 1, pageSize: 1, page: 0, items: [did] }, []]);
    const shown = await exchange(til.url, tilApi, "GET", "/issuer/{did}", at(did));
    expect([shown.body, shown.problems]).toEqual([issuer(did), []]);
    const replaced = await exchange(
      til.url,
      tilApi,
      "PUT",
      "/issuer/{did}",
      at(did),
      issuer(did, "2031-01-01T00:00:00Z"),
    );
    expect([replaced.status, replaced.problems]).toEqual([200, []]);
    const mismatch = await exchange(
      til.url,
      tilApi,
      "PUT",
      "/issuer/{did}",
      at(did),
      issuer("did:web:other.org"),
    );
    expect([mismatch.status, mismatch.problems]).toEqual([400, []]);
    expect((mismatch.body as Json).detail).toBe("Did does not match the issuer object.");
  });

  it("answers unknown issuers with an empty 404 where the document declares ProblemDetails", async () => {
    // notes/fdsc.md §4: GET and PUT /issuer/{did} answer 404 with an empty body.
    const unknown = "did:web:unknown.org";
    const shown = await exchange(til.url, tilApi, "GET", "/issuer/{did}", at(unknown));
    expect([shown.status, shown.problems]).toEqual([
      404,
      ["an empty body where application/json is declared"],
    ]);
    const replaced = await exchange(til.url, tilApi, "PUT", "/issuer/{did}", at(unknown), issuer(unknown));
    expect([replaced.status, replaced.problems]).toEqual([
      404,
      ["an empty body where application/json is declared"],
    ]);
    // DELETE declares its 404 without a body: conforms.
    const deleted = await exchange(til.url, tilApi, "DELETE", "/issuer/{did}", at(unknown));
    expect([deleted.status, deleted.problems]).toEqual([404, []]);
  });

  it("lists through the TIR read API as declared, paged by page index", async () => {
    for (const n of [1, 2, 3])
      await exchange(til.url, tilApi, "POST", "/issuer", "/issuer", issuer(`did:web:p${n}.org`));
    // Orrery asks `/v4/issuers` (issuer-routes.ts), the document writes `/v4/issuers/`: Micronaut
    // routes both to the same method.
    const first = await exchange(
      til.url,
      tirApi,
      "GET",
      "/v4/issuers/",
      "/v4/issuers?page%5Bsize%5D=2&page%5Bafter%5D=0",
    );
    expect(first.problems).toEqual([]);
    const body = first.body as { items: Json[]; total: number; pageSize: number; links: Json };
    expect([body.total, body.pageSize, body.items.length]).toEqual([4, 2, 2]);
    expect(body.links.next).toBe(`${til.url}/v4/issuers?page%5Bafter%5D=1&page%5Bsize%5D=2`);
    const second = await exchange(
      til.url,
      tirApi,
      "GET",
      "/v4/issuers/",
      "/v4/issuers?page%5Bsize%5D=2&page%5Bafter%5D=1",
    );
    expect(second.problems).toEqual([]);
    expect((second.body as Json).links).toEqual({
      first: `${til.url}/v4/issuers?page%5Bafter%5D=0&page%5Bsize%5D=2`,
      last: `${til.url}/v4/issuers?page%5Bafter%5D=1&page%5Bsize%5D=2`,
      prev: `${til.url}/v4/issuers?page%5Bafter%5D=0&page%5Bsize%5D=2`,
    });
    const entry = await exchange(til.url, tirApi, "GET", "/v4/issuers/{did}", `/v4/issuers/${did}`);
    expect(entry.problems).toEqual([]);
    const [attribute] = (entry.body as { attributes: Array<{ body: string; hash: string }> }).attributes;
    // The hash is the base64 SHA-256 of the JSON bytes, not of their base64 (TIRMapper.map).
    expect(attribute!.hash).toBe(
      createHash("sha256").update(Buffer.from(attribute!.body, "base64")).digest("base64"),
    );
    const oversized = await exchange(
      til.url,
      tirApi,
      "GET",
      "/v4/issuers/",
      "/v4/issuers/?page%5Bsize%5D=101",
      undefined,
      {
        offDocument: true,
      },
    );
    expect([oversized.status, oversized.problems]).toEqual([400, []]);
    // Not a DID: 400, declared (the document swaps the 400 and 404 descriptions, not their schemas).
    const notDid = await exchange(til.url, tirApi, "GET", "/v4/issuers/{did}", "/v4/issuers/happypets");
    expect([notDid.status, notDid.problems]).toEqual([400, []]);
  });

  it("answers an empty TIR list without the links the document requires", async () => {
    for (const d of [...til.issuers.keys()])
      await exchange(til.url, tilApi, "DELETE", "/issuer/{did}", at(d));
    const empty = await exchange(
      til.url,
      tirApi,
      "GET",
      "/v4/issuers/",
      "/v4/issuers?page%5Bsize%5D=100&page%5Bafter%5D=0",
    );
    // notes/fdsc.md §4: `{"items":[],"total":0,"pageSize":0,"self":…}` without `links`.
    expect(empty.problems).toEqual(["/ must have required property 'links'"]);
    expect(empty.body).toEqual({ items: [], total: 0, pageSize: 0, self: `${til.url}/v4/issuers` });
  });
});
