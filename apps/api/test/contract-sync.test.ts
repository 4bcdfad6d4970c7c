import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startFakeTrustedIssuersList,
  type FakeTrustedIssuersList,
} from "../../../test/fakes/trusted-issuers-list.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { driver, useTestApp } from "./support/harness.ts";

// Contract synchronisation (the original's ContractController): the stakeholder's DID in the
// trusted issuers list of the workspace's SIOP-2 service, with the contract's credential type and
// a "roles" claim naming the roles of its details for the service's VC verifier; over HTTP to a
// fake FIWARE trusted-issuers-list.

const ctx = useTestApp();
let list: FakeTrustedIssuersList;
const ids: Record<string, string> = {};

async function ok(method: string, path: string, body?: unknown) {
  const res = await ctx.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  list = await startFakeTrustedIssuersList();
  const broker = await ok(
    "POST",
    "/api/context-brokers",
    samplePayload("context-brokers", () => ""),
  );
  const til = await ok("POST", "/api/trusted-issuers-lists", {
    ...samplePayload("trusted-issuers-lists", () => ""),
    host: "127.0.0.1",
    port: Number(new URL(list.url).port),
  });
  ids.til = til.id;
  const verifier = await ok(
    "POST",
    "/api/vc-verifiers",
    samplePayload("vc-verifiers", () => ""),
  );
  ids.siop2 = (
    await ok("POST", "/api/services", {
      name: "SIOP-2 service",
      hasContextBroker: broker.id,
      authorizationRequired: true,
      authorizationMode: "siop2",
      hasVCVerifier: verifier.id,
      hasTrustedIssuersList: til.id,
      clientId: "market-broker",
    })
  ).id;
  ids.open = (await ok("POST", "/api/services", { name: "Open service", hasContextBroker: broker.id })).id;
});

afterAll(() => list?.close());

describe(`contract synchronisation (${driver})`, () => {
  it("puts the stakeholder in the trusted issuers list with the roles of the contract's details, replacing what was there", async () => {
    const { api } = ctx;
    const workspace = await ok("POST", "/api/workspaces", {
      name: "Market",
      dataModelName: "market",
      hasService: ids.open,
    });
    const path = `/api/workspace/${workspace.id}`;
    const role = (name: string) =>
      ok("POST", `${path}/roles`, {
        name,
        notBefore: 1_767_225_600,
        notOnOrAfter: 1_798_761_600,
        dataServiceProviderId: "did:web:market.example.org",
        verifiableCredentialType: "MarketCredential",
      });
    const [reader, writer] = [await role("Reader"), await role("Writer")];
    const contract = await ok("POST", `${path}/contracts`, {
      stakeholderDid: "did:web:grocer.example.org",
      stakeholderName: "Grocer",
      validFromTime: 1_767_225_600,
      validToTime: 1_798_761_600,
      verifiableCredentialType: "GrocerCredential",
    });
    await ok("POST", `${path}/contract-details`, { hasContract: contract.id, hasRole: writer.id });
    await ok("POST", `${path}/contract-details`, { hasContract: contract.id, hasRole: reader.id });
    const sync = () => api("POST", `${path}/contracts/${contract.id}/synchronize`);

    expect((await sync()).body.code).toBe("contracts.notSiop2");
    const { id, ...fields } = workspace;
    await ok("PUT", `/api/workspaces/${id}`, { ...fields, hasService: ids.siop2 });
    const first = await sync();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const expected = {
      did: "did:web:grocer.example.org",
      credentials: [
        {
          validFor: { from: "2026-01-01T00:00:00.000Z", to: "2027-01-01T00:00:00.000Z" },
          credentialsType: "GrocerCredential",
          claims: [
            {
              name: "roles",
              allowedValues: [{ names: ["Reader", "Writer"], target: "did:web:verifier.example.org" }],
            },
          ],
        },
      ],
    };
    expect(list.issuers.get("did:web:grocer.example.org")).toEqual(expected);

    // Again after a detail went: the list's issuer is replaced, not duplicated.
    const details = (await api("GET", `${path}/contract-details`)).body;
    await ok(
      "DELETE",
      `${path}/contract-details/${details.find((d: { hasRole: string }) => d.hasRole === reader.id).id}`,
    );
    expect((await sync()).status).toBe(200);
    expect(list.issuers.size).toBe(1);
    expect(list.issuers.get("did:web:grocer.example.org")?.credentials).toMatchObject([
      { claims: [{ allowedValues: [{ names: ["Writer"] }] }] },
    ]);

    // A second contract of the same stakeholder (the spec allows it): the list's entry carries both,
    // whichever is synchronised, instead of the last one erasing the other.
    const second = await ok("POST", `${path}/contracts`, {
      stakeholderDid: "did:web:grocer.example.org",
      stakeholderName: "Grocer, second shop",
      validFromTime: 1_798_761_600,
      validToTime: 1_830_297_600,
      verifiableCredentialType: "GrocerShopCredential",
    });
    await ok("POST", `${path}/contract-details`, { hasContract: second.id, hasRole: reader.id });
    const both = await api("POST", `${path}/contracts/${second.id}/synchronize`);
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(list.issuers.size).toBe(1);
    const credentials = list.issuers.get("did:web:grocer.example.org")?.credentials as Array<{
      credentialsType: string;
      claims: Array<{ allowedValues: Array<{ names: string[] }> }>;
    }>;
    expect(
      credentials
        .map((c) => `${c.credentialsType}: ${c.claims[0]!.allowedValues[0]!.names.join(" ")}`)
        .sort(),
    ).toEqual(["GrocerCredential: Writer", "GrocerShopCredential: Reader"]);
    expect((await sync()).status).toBe(200);
    expect(list.issuers.get("did:web:grocer.example.org")?.credentials).toHaveLength(2);

    // A list that cannot be reached: a 502 naming it.
    const til = (await api("GET", `/api/trusted-issuers-lists/${ids.til}`)).body;
    const { id: tilId, ...tilFields } = til;
    await ok("PUT", `/api/trusted-issuers-lists/${tilId}`, { ...tilFields, port: 9 });
    const gone = await sync();
    expect(gone.status).toBe(502);
    expect(gone.body.code).toBe("til.unreachable");
    await ok("PUT", `/api/trusted-issuers-lists/${tilId}`, til);
  });
});
