import { decodeJwt } from "jose";
import type { Item, Records } from "../resources/records.ts";
import { TimedCache } from "./consumer-cache.ts";
import { refused, type ConsumerVerdict } from "./consumer-verdict.ts";
import { fdscJudge, fdscSettingOf, type FdscJudge, type FdscSetting } from "./fdsc-consumer.ts";
import { ishareJudge, type IshareJudge, type PoliciesOf } from "./ishare-consumer.ts";
import { x5cOf } from "./ishare-party-token.ts";
import { ishareSettingOf, type IshareSetting } from "./ishare-setting.ts";
import {
  requiredPolicies,
  type ConsumerRequest,
  type Derivation,
  type EntityTypeOf,
} from "./required-policies.ts";

export type { ConsumerRequest, EntityTypeOf, RequiredPolicy } from "./required-policies.ts";
export { describePolicy, requiredPolicies } from "./required-policies.ts";
export type { ConsumerReason, ConsumerVerdict } from "./consumer-verdict.ts";

/**
 * The workspace's name of a type term of the request, as the broker will read it with the
 * request's @context (compare the expanded IRIs); undefined when it names none of the workspace's
 * types. Without it the request's terms are compared as they are written.
 */
export type TypeNameOf = (term: string, workspaceId: string) => Promise<string | undefined>;

export interface ConsumerJudge {
  /**
   * The verdict on a data-space consumer's token for a request on a tenant of the embedded broker,
   * among the workspaces that use that tenant; undefined when the token is no consumer's of any of
   * them (no identity manager knows it, no verifier issued it, no iSHARE JWT addressed to them).
   */
  judge(
    token: string,
    request: ConsumerRequest,
    workspaces: Item[],
    entityTypeOf: EntityTypeOf,
    typeNameOf?: TypeNameOf,
  ): Promise<ConsumerVerdict | undefined>;
  /** What judges a workspace's consumers: its registry (iSHARE), its PAP (FDSC), or nothing. */
  trustOf(workspace: Item): Promise<WorkspaceTrust>;
  /** The registry's effects for a role's roleName (ishare-consumer.ts). */
  registryEffects: IshareJudge["effects"];
  /** The PAP's permitting policies for a credential (fdsc-consumer.ts). */
  papPermitting: FdscJudge["permitting"];
}

/** A workspace's trust layer as the PEP reads it (kept the cache time). */
export interface WorkspaceTrust {
  ishare?: IshareSetting;
  fdsc?: FdscSetting;
}

/**
 * Data-space consumers (issue 35, "Who may call /ngsi-ld/v1"): iSHARE users and parties of a
 * workspace with an authorization registry (ishare-consumer.ts), holders of a VC verifier's token
 * in a workspace in FDSC mode (fdsc-consumer.ts). Registry answers, identity manager users, verifier
 * keys and PAP policies are kept `cacheMs` (a role synchronised with Deny stops access within that
 * time); a workspace's records are read again after the same time. `timeoutMs` bounds a whole
 * decision: past it, the answer is 503, never a Permit.
 */
export function consumerJudge(
  records: Records,
  options: { cacheMs: number; timeoutMs?: number },
): ConsumerJudge {
  const { cacheMs, timeoutMs = 5_000 } = options;
  const ishare = ishareJudge(cacheMs);
  const fdsc = fdscJudge(cacheMs);
  const settings = new TimedCache<WorkspaceTrust>(cacheMs, 1_000);

  const settingOf = (workspace: Item) =>
    settings.get(`${workspace.id} ${JSON.stringify(workspace)}`, async () => {
      const inFdsc = await fdscSettingOf(records, workspace);
      // As role synchronisation does: a workspace in FDSC mode is judged by its PAP alone.
      return inFdsc ? { fdsc: inFdsc } : { ishare: await ishareSettingOf(records, workspace) };
    });

  async function decide(
    token: string,
    request: ConsumerRequest,
    workspaces: Item[],
    entityTypeOf: EntityTypeOf,
    typeNameOf?: TypeNameOf,
  ): Promise<ConsumerVerdict | undefined> {
    const found = await Promise.all(workspaces.map(settingOf));
    const ishareSettings = found.map((s) => s.ishare).filter((s): s is IshareSetting => !!s);
    const fdscSettings = found.map((s) => s.fdsc).filter((s): s is FdscSetting => !!s);
    if (!ishareSettings.length && !fdscSettings.length) return undefined;

    let derived: Promise<Derivation> | undefined;
    const policiesOf: PoliciesOf = async (workspaceId) => {
      const derivation = await (derived ??= requiredPolicies(request, entityTypeOf));
      if ("refused" in derivation || !typeNameOf) return derivation;
      const policies = [];
      for (const policy of derivation.policies) {
        const type = await typeNameOf(policy.type, workspaceId);
        if (!type) return { refused: `the entity type ${policy.type} is not in the workspace's data model` };
        policies.push({ ...policy, type });
      }
      return { policies };
    };

    const x5c = x5cOf(token);
    if (x5c) return ishare.party(token, x5c, ishareSettings, policiesOf);
    if (fdscSettings.length && isJwt(token)) {
      const segments = request.path.split("/");
      const last = decodeURIComponent(segments.at(-1) ?? "");
      const verdict = await fdsc.judge(token, fdscSettings, policiesOf, last);
      if (verdict) return verdict;
    }
    return ishare.user(token, ishareSettings, policiesOf);
  }

  return {
    trustOf: settingOf,
    registryEffects: ishare.effects,
    papPermitting: fdsc.permitting,
    async judge(token, request, workspaces, entityTypeOf, typeNameOf) {
      // No decision in time, or a decision that failed: a refusal to answer (503), never a Permit nor a 500.
      const unanswered = (detail: string) =>
        refused(
          {
            holder: "",
            holderKind: "ishare-user",
            roles: [],
            workspaceId: workspaces[0]?.id ?? "",
            asked: [],
          },
          "registryUnreachable",
          detail,
        );
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<ConsumerVerdict>((resolve) => {
        timer = setTimeout(
          () =>
            resolve(
              unanswered(
                `No decision within ${timeoutMs} ms: the authorization registry, identity manager, verifier or policy administration point is too slow.`,
              ),
            ),
          timeoutMs,
        );
      });
      const deciding = decide(token, request, workspaces, entityTypeOf, typeNameOf).catch((err: unknown) =>
        unanswered(`No decision could be made: ${err instanceof Error ? err.message : String(err)}.`),
      );
      try {
        return await Promise.race([deciding, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function isJwt(token: string): boolean {
  try {
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
}
