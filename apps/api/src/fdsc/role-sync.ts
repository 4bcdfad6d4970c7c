import { createHash } from "node:crypto";
import { roles, services } from "@orrery/model";
import { odrlActionOfMethod, odrlOf, statementsOf } from "@orrery/model/odrl";
import { say, type Language, type MessageCode, type Params } from "../messages/say.ts";
import { problem } from "../problems.ts";
import { toItem, type Records } from "../resources/records.ts";
import { accessesOfRole, policyInputs, unchangedSince } from "../trust/synchronize-routes.ts";
import { call, refused } from "./peer.ts";
import { deletePolicy, papOf, policyPath, readPolicy, writePolicy, type Policy } from "./pap.ts";

type Row = NonNullable<Awaited<ReturnType<Records["find"]>>>;

/** Whether the workspace's service is in FDSC mode: its roles are then synchronised with its PAP. */
export async function inFdscMode(records: Records, workspace: Row): Promise<boolean> {
  const service = await records.find(services, String(workspace.data.hasService));
  return service?.data.authorizationRequired === true && service.data.authorizationMode === "fdsc";
}

/**
 * The PAP id of the policy of one data service access: fixed, so that a synchronisation again
 * replaces what the last one wrote (PUT creates or overwrites); lowercase letters only, as the ids
 * the PAP makes, since it names the Rego package (`policy.<id>`).
 */
const policyIdOf = (accessId: string) =>
  `orrery${[...createHash("sha256").update(accessId).digest()]
    .slice(0, 14)
    .map((b) => String.fromCharCode(97 + (b % 26)))
    .join("")}`;

/** What a role keeps of a synchronisation with the PAP: each policy as written and read back. */
interface Written {
  id: string;
  uid: string;
  odrl: Record<string, unknown>;
}

/**
 * Synchronisation of a role in FDSC mode: one ODRL policy per data service access, the role as
 * `vc:role` of its credential type, the data service's entity type as `ngsi-ld:entityType`, its data
 * actions as ODRL actions (GET read, PATCH modify, ...). Permit writes them to the PAP; Deny removes
 * them (the PAP's Rego denies what no policy allows: it has no prohibitions). Each is then read back
 * from the PAP: only when it returns every policy as written (or none, after Deny) is the role
 * synchronised, keeping the policies and the time. Policies of accesses the role no longer has go.
 */
export async function synchronizeRoleInPap(
  records: Records,
  workspaceId: string,
  role: Row,
  effect: "Permit" | "Deny",
  language: Language,
) {
  const lines: string[] = [];
  const line = (code: MessageCode, params: Params) => lines.push(say(language, code, params));
  const at = await papOf(records, workspaceId);
  const workspace = await records.requireWorkspace(workspaceId);
  const accesses = await accessesOfRole(records, workspaceId, role.id);
  const before = policyInputs(role.data, accesses);
  if (!accesses.length) throw problem(400, "roles.noAccesses", { role: String(role.data.name) });
  const roleName = String(role.data.roleName);
  const credentialType = String(role.data.verifiableCredentialType);
  const previous = ((role.data.lastOdrlPolicies as Written[] | undefined) ?? []).map((p) => p.id);

  const planned = accesses.map((access) => {
    const skipped = access.actions.filter((a) => !odrlActionOfMethod[a]);
    for (const action of skipped) line("fdscSync.skipped", { action, type: access.type });
    return {
      id: policyIdOf(`${workspaceId} ${access.accessId}`),
      type: access.type,
      actions: [...new Set(access.actions.map((a) => odrlActionOfMethod[a]).filter((a): a is string => !!a))],
      uid: `urn:orrery:${String(workspace.data.dataModelName)}:role:${roleName}:access:${access.accessId}`,
    };
  });
  const kept = effect === "Permit" ? planned.filter((p) => p.actions.length > 0) : [];
  if (effect === "Permit" && !kept.length)
    throw problem(400, "fdscSync.noOdrlAction", { role: String(role.data.name) });

  // Stale first: what the role had written for accesses it no longer has (or everything, on Deny).
  for (const id of [...new Set([...previous, ...planned.map((p) => p.id)])].filter(
    (id) => !kept.some((p) => p.id === id),
  )) {
    await deletePolicy(at, id);
    if (previous.includes(id) || effect === "Deny") line("fdscSync.removed", { id, name: at.pap.name });
  }
  const written: Written[] = [];
  let proven = true;
  for (const policy of kept) {
    const odrl = odrlOf({
      uid: policy.uid,
      assignee: { kind: "role", role: roleName, credentialType },
      actions: policy.actions,
      target: { kind: "entityType", entityType: policy.type },
      constraints: [],
    });
    line("fdscSync.writing", { type: policy.type, actions: policy.actions.join(", "), name: at.pap.name });
    await writePolicy(at, "PUT", policyPath(at, policy.id), odrl);
    // Proof at the peer: what the PAP returns (and OPA reads) says the same as what was written.
    const back: Policy = await readPolicy(at.pap, policyPath(at, policy.id));
    const said = statementsOf(back.odrl);
    const same =
      back.uid === policy.uid &&
      said.length === policy.actions.length &&
      said.every(
        (s, i) =>
          s.action === policy.actions[i] &&
          s.assignee.kind === "role" &&
          s.assignee.role === roleName &&
          s.assignee.credentialType === credentialType &&
          s.target.kind === "entityType" &&
          s.target.entityType === policy.type,
      );
    line(same ? "fdscSync.readBack" : "fdscSync.notReadBack", { id: policy.id, type: policy.type });
    proven &&= same;
    written.push({ id: back.id, uid: back.uid, odrl: back.odrl });
  }
  if (effect === "Deny")
    for (const policy of planned) {
      const answer = await call(at.pap, "GET", policyPath(at, policy.id));
      if (answer.status !== 404 && answer.status !== 200) throw refused(at.pap, answer);
      const gone = answer.status === 404;
      line(gone ? "fdscSync.absent" : "fdscSync.stillThere", { id: policy.id, type: policy.type });
      proven &&= gone;
    }
  if (!proven) {
    await records.patchData(roles, role.id, { synchronized: false });
    throw problem(502, "fdscSync.notProven", { name: at.pap.name, role: roleName }, { details: lines });
  }
  await unchangedSince(records, workspaceId, role.id, before);
  await records.patchData(roles, role.id, {
    synchronized: true,
    changedSinceSynchronization: false,
    synchronizationTime: Math.floor(Date.now() / 1000),
    lastOdrlPolicies: written,
  });
  return { ...toItem(roles, (await records.find(roles, role.id, workspaceId))!), details: lines };
}
