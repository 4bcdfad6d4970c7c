import { createHash } from "node:crypto";
import { compactVerify, decodeJwt, importX509 } from "jose";
import { PeerUnreachable, callPeer } from "../peers.ts";
import { RegistryFailure, registryToken, type Registry } from "../trust/ishare.ts";
import { reasonOf } from "../trust/registry.ts";
import { answeredEffects } from "../trust/role-policy.ts";
import { TimedCache } from "./consumer-cache.ts";
import { permitted, refused, strongest, type ConsumerVerdict, type Holder } from "./consumer-verdict.ts";
import { checkPartyToken, type PartyCheck } from "./ishare-party-token.ts";
import { pem, type IshareSetting } from "./ishare-setting.ts";
import { PeerDown, keyrockUser, type KeyrockUser } from "./keyrock-user.ts";
import { describePolicy, type RequiredPolicy } from "./required-policies.ts";

/**
 * iSHARE consumers of a workspace with an authorization registry (notes/pep.md §1):
 * (a) a user of the workspace's identity manager, whose Keyrock roles (direct and through
 *     organisations, `GET /user?access_token=`) are the workspace's roles they hold; and
 * (b) a consumer party, machine to machine, with an iSHARE JWT signed by the leaf of its x5c chain.
 * Either is allowed an operation when the registry's delegation evidence answers Permit for every
 * required policy: for one of the user's roles (access subject = the role's roleName, as Orrery's
 * synchronisation writes it), or for the party (access subject = its EORI).
 *
 * A Keyrock role is a workspace role when its name is the role's roleName, or the roleScopeName of
 * a contract detail of that role: contract-detail synchronisation creates the Keyrock role under
 * that name, and the users panel assigns it.
 */

const base = (r: Registry) => `${r.scheme}://${r.host}:${r.port}${r.path ?? ""}`.replace(/\/$/, "");

/**
 * The mask's policies as role-policy.ts asks them: Keyrock's matcher fails on an `environment`, so
 * only other registries get the data service provider there.
 */
const maskPolicy = (registry: Registry, provider: string, p: RequiredPolicy) => ({
  target: {
    resource: { type: p.type, identifiers: p.identifiers, attributes: p.attributes },
    actions: [p.action],
    ...(registry.implementationName === "keyrock" ? {} : { environment: { serviceProviders: [provider] } }),
  },
  rules: [{ effect: "Permit" }],
});

/** A registry's answer for one access subject: the effect of each required policy, in order. */
type Answer = { effects: Array<"Permit" | "Deny"> } | { noPolicy: true };

export interface IshareJudge {
  /** The verdict for a Keyrock user's token, or undefined when no workspace's identity manager knows it. */
  user(
    token: string,
    settings: IshareSetting[],
    policiesOf: PoliciesOf,
  ): Promise<ConsumerVerdict | undefined>;
  /** The verdict for an iSHARE JWT (x5c header), or undefined when it is addressed to none of these workspaces. */
  party(
    token: string,
    x5c: string[],
    settings: IshareSetting[],
    policiesOf: PoliciesOf,
  ): Promise<ConsumerVerdict | undefined>;
  /**
   * What the registry answers for one access subject (a role's roleName) over required policies,
   * asked and cached as for a request (the dry run of the workspace's consumers panel).
   */
  effects(setting: IshareSetting, subject: string, policies: RequiredPolicy[]): Promise<RegistryEffects>;
}

/** The registry's effect for each required policy, in order, or why it could not be asked. */
export type RegistryEffects = { effects: Array<"Permit" | "Deny"> } | { unreachable: string };

/** The required policies of the request, or why there are none (for one workspace). */
export type PoliciesOf = (
  workspaceId: string,
) => Promise<{ policies: RequiredPolicy[] } | { refused: string }>;

const digest = (token: string) => createHash("sha256").update(token).digest("base64url");

export function ishareJudge(cacheMs: number): IshareJudge {
  const users = new TimedCache<KeyrockUser | undefined>(cacheMs);
  const answers = new TimedCache<Answer>(cacheMs);
  const tokens = new TimedCache<string>(60_000, 1_000);
  const checks = new TimedCache<PartyCheck>(cacheMs);

  /** A party token's check, kept for the cache time (its expiry is read again on each use). */
  async function partyCheck(token: string, x5c: string[], roots: Set<string>): Promise<PartyCheck> {
    const check = await checks.get(`${digest(token)} ${[...roots].sort().join(" ")}`, () =>
      checkPartyToken(token, x5c, roots),
    );
    if (check.ok && Number(check.payload.exp) <= Date.now() / 1000)
      return { ok: false, reason: "expired", detail: "The token has expired." };
    return check;
  }

  /** A delegation request for one subject, with the registry's access token (asked again once when it has expired). */
  async function delegation(
    setting: IshareSetting,
    subject: string,
    provider: string,
    policies: RequiredPolicy[],
  ) {
    const { registry, grant, registryId } = setting;
    const tokenKey = `${registryId} ${grant.identifier}`;
    const body = JSON.stringify({
      delegationRequest: {
        policyIssuer: registry.identifier,
        target: { accessSubject: subject },
        policySets: [{ policies: policies.map((p) => maskPolicy(registry, provider, p)) }],
      },
    });
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get(tokenKey, () => registryToken(registry, grant));
      const answer = await callPeer(
        `${base(registry)}${registry.delegationPath}`,
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json",
          },
          body,
        },
        "authorization-registries",
      ).catch((err: unknown) => {
        throw err instanceof PeerUnreachable ? new RegistryFailure("delegation", undefined, err.cause) : err;
      });
      if (answer.status === 401 && attempt === 0) {
        tokens.delete(tokenKey);
        continue;
      }
      return answer;
    }
  }

  /** The registry's answer for a subject, cached for the same subject and required policies. */
  function ask(
    setting: IshareSetting,
    subject: string,
    provider: string,
    policies: RequiredPolicy[],
  ): Promise<Answer> {
    const key = [
      setting.registryId,
      setting.registry.identifier,
      subject,
      ...policies.map(describePolicy),
    ].join("\n");
    return answers.get(key, async () => {
      const answer = await delegation(setting, subject, provider, policies);
      // Keyrock: a subject it holds no policy for is a 404 with an empty body.
      if (answer.status === 404 && (answer.body === null || answer.body === "")) return { noPolicy: true };
      if (answer.status !== 200) throw new RegistryFailure("delegation", answer.status, answer.body);
      const jwt = answer.body as { delegation_token?: unknown; delegationToken?: unknown } | null;
      const signed = jwt?.delegation_token ?? jwt?.delegationToken;
      if (typeof signed !== "string") throw new RegistryFailure("delegation", 200, answer.body);
      // Evidence counts only when signed by the registry as registered (its leaf certificate).
      const leaf = setting.registry.certificates?.[0];
      try {
        if (!leaf) throw new Error("no certificate");
        await compactVerify(signed, await importX509(pem(leaf), "RS256"));
      } catch {
        throw new RegistryFailure(
          "delegation",
          200,
          "a delegation token not signed by the registry's certificate",
        );
      }
      const evidence = decodeJwt(signed).delegationEvidence as
        { notBefore?: unknown; notOnOrAfter?: unknown; target?: { accessSubject?: unknown } } | undefined;
      const now = Date.now() / 1000;
      const current =
        evidence?.target?.accessSubject === subject &&
        Number(evidence.notBefore) <= now &&
        now < Number(evidence.notOnOrAfter);
      return {
        effects: policies.map((_, i) => {
          const effects = current ? answeredEffects(evidence, i) : [];
          return effects.length > 0 && effects.every((e) => e === "Permit") ? "Permit" : "Deny";
        }),
      };
    });
  }

  const unreachable = (setting: IshareSetting, err: unknown) => {
    if (!(err instanceof RegistryFailure)) throw err;
    const { name } = setting.registry;
    return err.status === undefined
      ? `The authorization registry ${name} could not be reached (${String(err.body)}).`
      : `The authorization registry ${name} gave no usable answer (${err.step} ${err.status}: ${reasonOf(err.body)}).`;
  };

  /** The decision for subjects (a user's roles, or one party) over the required policies of one workspace. */
  async function decide(
    who: Holder,
    setting: IshareSetting,
    subjects: string[],
    provider: (subject: string) => string,
    policies: RequiredPolicy[],
  ) {
    const granted = policies.map(() => false);
    for (const subject of subjects) {
      let answer: Answer;
      try {
        answer = await ask(setting, subject, provider(subject), policies);
      } catch (err) {
        return refused(who, "registryUnreachable", unreachable(setting, err));
      }
      if ("effects" in answer) answer.effects.forEach((e, i) => (granted[i] ||= e === "Permit"));
      if (granted.every(Boolean))
        return permitted(
          who,
          `The authorization registry ${setting.registry.name} permits ${policies.map(describePolicy).join("; ")} for ${subject}.`,
        );
    }
    const denied = policies.filter((_, i) => !granted[i]).map(describePolicy);
    return refused(
      who,
      "registryDeny",
      `The authorization registry ${setting.registry.name} does not permit ${denied.join("; ")} for ${subjects.join(", ")}.`,
    );
  }

  async function user(token: string, settings: IshareSetting[], policiesOf: PoliciesOf) {
    const verdicts: ConsumerVerdict[] = [];
    let down: { setting: IshareSetting; detail: string } | undefined;
    for (const setting of settings) {
      const idm = setting.identityManager;
      if (!idm) continue;
      let found: KeyrockUser | undefined;
      try {
        found = await users.get(`${idm.url} ${digest(token)}`, () => keyrockUser(idm.url, idm.name, token));
      } catch (err) {
        if (!(err instanceof PeerDown)) throw err;
        down ??= { setting, detail: err.detail };
        continue;
      }
      // Keyrock's roles are those of the application that issued the token: another application's are not the workspace's.
      if (!found || (found.application !== undefined && found.application !== idm.application)) continue;
      const subjects = [
        ...new Set(found.roleNames.flatMap((n) => [...(setting.subjectsByKeyrockRole.get(n) ?? [])])),
      ].sort();
      const derived = await policiesOf(setting.workspaceId);
      const who: Holder = {
        holder: found.holder,
        holderKind: "ishare-user",
        roles: subjects,
        workspaceId: setting.workspaceId,
        asked: "policies" in derived ? derived.policies.map(describePolicy) : [],
      };
      if (!subjects.length) {
        verdicts.push(
          refused(
            who,
            "noRole",
            `${found.holder} holds none of the workspace's roles in ${idm.name} (holds: ${found.roleNames.join(", ") || "no role"}).`,
          ),
        );
        continue;
      }
      if ("refused" in derived) {
        verdicts.push(refused(who, "policyDeny", `Refused: ${derived.refused}.`));
        continue;
      }
      const provider = (subject: string) => setting.providerOf.get(subject) ?? setting.grant.identifier;
      const verdict = await decide(who, setting, subjects, provider, derived.policies);
      if (verdict.permit) return verdict;
      verdicts.push(verdict);
    }
    if (!verdicts.length && down)
      return refused(
        {
          holder: "",
          holderKind: "ishare-user",
          roles: [],
          workspaceId: down.setting.workspaceId,
          asked: [],
        },
        "registryUnreachable",
        down.detail,
      );
    return strongest(verdicts);
  }

  async function party(token: string, x5c: string[], settings: IshareSetting[], policiesOf: PoliciesOf) {
    const verdicts: ConsumerVerdict[] = [];
    for (const setting of settings) {
      const check = await partyCheck(token, x5c, setting.trustedRoots);
      const claimed = (() => {
        try {
          const p = decodeJwt(token);
          return String(p.sub ?? p.iss ?? "");
        } catch {
          return "";
        }
      })();
      const who = (party: string, asked: string[] = []): Holder => ({
        holder: party,
        holderKind: "ishare-party",
        party,
        roles: [],
        workspaceId: setting.workspaceId,
        asked,
      });
      if (!check.ok) {
        verdicts.push(refused(who(claimed), check.reason, check.detail));
        continue;
      }
      const { payload, party: subject } = check;
      const audience = [payload.aud ?? []].flat();
      if (!audience.some((a) => setting.localParties.has(a))) continue; // addressed to another data space
      // Machine to machine: the party signs for itself, or the token was issued by this data space's party.
      if (payload.iss !== subject && !setting.localParties.has(String(payload.iss))) {
        verdicts.push(
          refused(
            who(subject),
            "badSignature",
            `The token names ${subject} but was issued by ${String(payload.iss)}.`,
          ),
        );
        continue;
      }
      const derived = await policiesOf(setting.workspaceId);
      if ("refused" in derived) {
        verdicts.push(refused(who(subject), "policyDeny", `Refused: ${derived.refused}.`));
        continue;
      }
      const verdict = await decide(
        who(subject, derived.policies.map(describePolicy)),
        setting,
        [subject],
        () => setting.grant.identifier,
        derived.policies,
      );
      if (verdict.permit) return verdict;
      verdicts.push(verdict);
    }
    return strongest(verdicts);
  }

  async function effects(
    setting: IshareSetting,
    subject: string,
    policies: RequiredPolicy[],
  ): Promise<RegistryEffects> {
    const provider = setting.providerOf.get(subject) ?? setting.grant.identifier;
    try {
      const answer = await ask(setting, subject, provider, policies);
      return { effects: "effects" in answer ? answer.effects : policies.map(() => "Deny" as const) };
    } catch (err) {
      // As a request's decision: a failure is a registry that cannot be asked, never an error page.
      if (!(err instanceof RegistryFailure))
        return {
          unreachable: `No decision could be made: ${err instanceof Error ? err.message : String(err)}.`,
        };
      return { unreachable: unreachable(setting, err) };
    }
  }

  return { user, party, effects };
}
