import { contractDetails, identityManagerGrants, identityManagers, roles as roleKind } from "@orrery/model";
import { address } from "../context-data/broker-access.ts";
import type { Item, Records } from "../resources/records.ts";
import { certificateOf, type Registry, type RegistryGrant } from "../trust/ishare.ts";
import { registryAndGrant } from "../trust/registry.ts";

/**
 * What the PEP reads of a workspace with an authorization registry: the registry and the grant it
 * signs in with, the roots it trusts, its identity manager, and which Keyrock role names are its
 * roles. A Keyrock role is a workspace role when its name is the role's roleName, or the
 * roleScopeName of a contract detail of that role: contract-detail synchronisation creates the
 * Keyrock role under that name, and the users panel assigns it.
 */

export type RegistryWithChain = Registry & { certificates?: string[] };

/** A workspace's iSHARE setting, read from its records (the grant's key decrypted). */
export interface IshareSetting {
  workspaceId: string;
  registryId: string;
  registry: RegistryWithChain;
  grant: RegistryGrant;
  /** SHA-256 fingerprints of the roots the workspace trusts: its registry's and its own party's. */
  trustedRoots: Set<string>;
  /** The parties a consumer's JWT may be addressed to: the grant's and the registry's. */
  localParties: Set<string>;
  identityManager?: { id: string; name: string; url: string; application: string };
  /** Access subject (roleName) of each Keyrock role name that is one of the workspace's roles. */
  subjectsByKeyrockRole: Map<string, Set<string>>;
  /** The data service provider of each role (roleName), which other registries than Keyrock match on. */
  providerOf: Map<string, string>;
}

export const pem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.replace(/\s+/g, "").replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`;

const rootOf = (chain: unknown): string | undefined => {
  const last = Array.isArray(chain) ? chain.at(-1) : undefined;
  try {
    return typeof last === "string" ? certificateOf(last).fingerprint256 : undefined;
  } catch {
    return undefined;
  }
};

/** The setting of a workspace with a registry and its grant, or undefined (no registry, or records that do not pair). */
export async function ishareSettingOf(records: Records, workspace: Item): Promise<IshareSetting | undefined> {
  const { hasAuthorizationRegistry: registryId, hasAuthorizationRegistryGrant: grantId } = workspace;
  if (typeof registryId !== "string" || typeof grantId !== "string") return undefined;
  let pair;
  try {
    pair = await registryAndGrant(records, registryId, grantId);
  } catch {
    return undefined; // a registry or grant gone, or a grant of another registry: nothing to ask
  }
  const registry = pair.registry as RegistryWithChain;
  const grantRow = await records.find(identityManagerGrants, String(workspace.hasIdentityManagerGrant ?? ""));
  const idmRow = await records.find(identityManagers, String(workspace.hasIdentityManager ?? ""));
  const identityManager =
    idmRow && grantRow && grantRow.data.hasIdentityManager === idmRow.id
      ? {
          id: idmRow.id,
          name: String(idmRow.data.name),
          url: `${address(idmRow.data).replace(/\/$/, "")}${String(idmRow.data.userPath ?? "/user")}`,
          application: String(grantRow.data.clientId),
        }
      : undefined;
  const [roleList, details] = await Promise.all([
    records.list(roleKind, workspace.id),
    records.list(contractDetails, workspace.id),
  ]);
  const subjectsByKeyrockRole = new Map<string, Set<string>>();
  const providerOf = new Map<string, string>();
  const add = (name: unknown, subject: string) => {
    if (typeof name !== "string" || !name) return;
    subjectsByKeyrockRole.set(name, (subjectsByKeyrockRole.get(name) ?? new Set()).add(subject));
  };
  for (const role of roleList) {
    if (typeof role.roleName !== "string") continue;
    add(role.roleName, role.roleName);
    providerOf.set(role.roleName, String(role.dataServiceProviderId ?? ""));
    for (const detail of details.filter((d) => d.hasRole === role.id))
      add(detail.roleScopeName, role.roleName);
  }
  return {
    workspaceId: workspace.id,
    registryId,
    registry,
    grant: pair.grant,
    trustedRoots: new Set(
      [rootOf(registry.certificates), rootOf(pair.grant.certificates)].filter((r): r is string => !!r),
    ),
    localParties: new Set([pair.grant.identifier, registry.identifier]),
    identityManager,
    subjectsByKeyrockRole,
    providerOf,
  };
}
