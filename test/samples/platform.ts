import type { KindDefinition } from "@orrery/model";

import { partyCredentials } from "../fakes/pki.ts";

const cert = "MIIBszCCAVmgAwIBAgIUQm9ndXNDZXJ0aWZpY2F0ZUJhc2U2NA==";
/** A grant's key must belong to its leaf certificate: a chain made for the run. */
const party = await partyCredentials("EU.EORI.NLPACKETDEL", "Sample grant");

/** A valid create payload for each platform kind; `ref(kind)` supplies the id of a record a payload needs. */
export function samplePayload(kind: string, ref: (kind: string) => string, n = 1): Record<string, unknown> {
  switch (kind) {
    case "identity-manager-grants":
      return {
        name: `Grant ${n}`,
        hasIdentityManager: ref("identity-managers"),
        grantType: "password",
        clientId: "client-id",
        clientSecret: "s3cr3t-client",
        username: "alice@example.org",
        password: "p4ssw0rd-alice",
      };
    case "identity-managers":
      return {
        name: `Keyrock ${n}`,
        scheme: "https",
        host: "idm.example.org",
        port: 443,
        oauth2TokenPath: "/oauth2/token",
        implementationName: "keyrock",
        implementationVersion: "8.4.0",
      };
    case "context-brokers":
      return {
        name: `Broker ${n}`,
        scheme: "http",
        host: "orion",
        port: 1026,
        paginationMaxLimit: 1000,
        implementationName: "orion-ld",
        implementationVersion: "1.5.1",
        customHeaders: { "X-Api-Key": "k" },
      };
    case "services":
      return {
        name: `Service ${n}`,
        hasContextBroker: ref("context-brokers"),
        authorizationRequired: true,
        authorizationMode: "oauth2",
        hasIdentityManager: ref("identity-managers"),
        hasIdentityManagerGrant: ref("identity-manager-grants"),
      };
    case "temporal-services":
      return {
        name: `Mintaka ${n}`,
        temporalServiceType: "mintaka",
        version: "0.7.1",
        scheme: "http",
        host: "mintaka",
        port: 8080,
      };
    case "authorization-registry-grants":
      return {
        name: `AR grant ${n}`,
        hasAuthorizationRegistry: ref("authorization-registries"),
        identifier: "EU.EORI.NLPACKETDEL",
        certificates: party.certificates,
        privateKey: party.privateKey,
      };
    case "authorization-registries":
      return {
        name: `AR ${n}`,
        identifier: "EU.EORI.NL000000004",
        certificates: [cert, cert, cert],
        scheme: "https",
        host: "ar.isharetest.net",
        port: 443,
        oauth2TokenPath: "/connect/token",
        delegationPath: "/delegation",
        policyPath: "/policy",
        implementationName: "keyrock",
        implementationVersion: "8.4.0",
      };
    case "vc-verifiers":
      return {
        name: `Verifier ${n}`,
        did: "did:web:verifier.example.org",
        scheme: "https",
        host: "verifier.example.org",
        port: 443,
        implementationName: "fiware-vc-verifier",
        implementationVersion: "6.0.0",
      };
    case "trusted-issuers-lists":
      return {
        name: `TIL ${n}`,
        scheme: "http",
        host: "til",
        port: 8080,
        implementationName: "fiware-trusted-issuers-list",
        implementationVersion: "0.4.0",
      };
    case "policy-administration-points":
      return {
        name: `PAP ${n}`,
        scheme: "http",
        host: "odrl-pap",
        port: 8080,
        organizationDid: "did:web:provider.example.org",
        implementationName: "odrl-pap",
        implementationVersion: "1.4.3",
      };
    case "credentials-config-services":
      return {
        name: `CCS ${n}`,
        scheme: "http",
        host: "verifier",
        port: 8090,
        implementationName: "fiware-vc-verifier",
        implementationVersion: "6.2.0",
      };
    case "data-actions":
      return { name: `action-${n}` };
    case "broker-clients":
      return { name: `IoT agent ${n}`, tenants: ["", "supermarket"], access: "write" };
    default:
      throw new Error(`no sample for ${kind}`);
  }
}

/** Plain secret values of the samples: none may ever appear in a response or a log line. */
export const sampleSecrets = ["s3cr3t-client", "p4ssw0rd-alice", party.privateKey];

export type Api = (
  method: string,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: any; headers: Record<string, unknown> }>;

/** The records a sample needs first, in order (a service's grant is one of its identity manager's). */
const needs: Record<string, string[]> = {
  services: ["context-brokers", "identity-managers", "identity-manager-grants"],
  "identity-manager-grants": ["identity-managers"],
  "authorization-registry-grants": ["authorization-registries"],
};

/**
 * Creates one record of a kind through the API, creating the records it refers to first (or taking
 * them from `refs`, which it fills).
 */
export async function createSample(
  api: Api,
  kind: KindDefinition,
  all: readonly KindDefinition[],
  n = 1,
  refs = new Map<string, string>(),
): Promise<any> {
  const ref = (k: string) => refs.get(k)!;
  for (const k of needs[kind.kind] ?? [])
    if (!refs.has(k))
      refs.set(
        k,
        (
          await createSample(
            api,
            all.find((d) => d.kind === k)!,
            all,
            n,
            refs,
          )
        ).id,
      );
  const res = await api("POST", `/api/${kind.kind}`, samplePayload(kind.kind, ref, n));
  if (res.status !== 201) throw new Error(`creating ${kind.kind}: ${res.status} ${JSON.stringify(res.body)}`);
  // The record as it reads: a broker client's key is in its create's answer only.
  const { key: _key, ...read } = res.body;
  return read;
}

/** A workspace on a new sample service (broker, identity manager and grant included), with a unique data model name. */
export async function createWorkspace(
  api: Api,
  all: readonly KindDefinition[],
  patch: Record<string, unknown> = {},
) {
  const service = await createSample(
    api,
    all.find((k) => k.kind === "services")!,
    all,
  );
  const res = await api("POST", "/api/workspaces", {
    name: "Air",
    dataModelName: `air-${Math.random().toString(36).slice(2, 8)}`,
    hasService: service.id,
    ...patch,
  });
  if (res.status !== 201) throw new Error(`creating a workspace: ${res.status} ${JSON.stringify(res.body)}`);
  return { workspace: res.body, service };
}
