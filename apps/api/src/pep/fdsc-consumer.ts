import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { policyAdministrationPoints, services, vcVerifiers } from "@orrery/model";
import { address } from "../context-data/broker-access.ts";
import { call } from "../fdsc/peer.ts";
import { papOf, shown, type PapPlace, type Policy } from "../fdsc/pap.ts";
import { PeerUnreachable, callPeer } from "../peers.ts";
import { Problem } from "../problems.ts";
import type { Item, Records } from "../resources/records.ts";
import { TimedCache } from "./consumer-cache.ts";
import { permitted, refused, strongest, type ConsumerVerdict, type Holder } from "./consumer-verdict.ts";
import type { PoliciesOf } from "./ishare-consumer.ts";
import { permittingPolicy, type CredentialFacts } from "./odrl-decision.ts";
import { describePolicy, type RequiredPolicy } from "./required-policies.ts";

/**
 * Consumers of a workspace in FDSC mode (notes/pep.md §2): a JWT that a VC verifier registered in
 * Orrery issued for the workspace's service (`aud` = the service's client id, `iss` = the verifier's
 * address), signed with a key of the verifier's JWKS (`/.well-known/jwks`, read again after the
 * cache time), carrying the credential (`verifiableCredential`, `vc`, or `verifiablePresentation`).
 * Its roles for the PAP's organisation are judged by the ODRL policies the PAP holds for the
 * workspace's service: the PAP is the truth because it is what the connector's own gateway (OPA)
 * enforces, it holds the policies written from the policies screen as well as those a role's
 * synchronisation wrote, and a policy removed there (a role synchronised with Deny) stops access
 * here too; a role's lastOdrlPolicies is only Orrery's memory of its last synchronisation.
 */
export interface FdscSetting {
  workspaceId: string;
  clientId: string;
  organizationDid: string;
  papName: string;
  place: PapPlace;
  /** The verifiers whose tokens count: the service's own when it names one, else every registered verifier. */
  verifiers: Array<{ id: string; name: string; issuers: string[]; jwks: string }>;
}

const trimmed = (url: string) => url.replace(/\/+$/, "");

/** The addresses a verifier's `iss` may take: its address, with and without the scheme's default port. */
function issuersOf(data: Record<string, unknown>): string[] {
  const at = trimmed(address(data));
  try {
    const url = new URL(at);
    return [...new Set([at, trimmed(url.toString())])];
  } catch {
    return [at];
  }
}

export async function fdscSettingOf(records: Records, workspace: Item): Promise<FdscSetting | undefined> {
  const service = await records.find(services, String(workspace.hasService ?? ""));
  if (service?.data.authorizationRequired !== true || service.data.authorizationMode !== "fdsc")
    return undefined;
  let place: PapPlace;
  try {
    place = await papOf(records, workspace.id);
  } catch {
    return undefined; // an incomplete service: no policies to judge by
  }
  const pap = await records.find(
    policyAdministrationPoints,
    String(service.data.hasPolicyAdministrationPoint),
  );
  const own = service.data.hasVCVerifier;
  const verifierList = (await records.list(vcVerifiers)).filter((v) => !own || v.id === own);
  return {
    workspaceId: workspace.id,
    clientId: String(service.data.clientId ?? ""),
    organizationDid: String(pap?.data.organizationDid ?? ""),
    papName: place.pap.name,
    place,
    verifiers: verifierList.map((v) => ({
      id: v.id,
      name: String(v.name),
      issuers: issuersOf(v),
      jwks: `${trimmed(address(v))}/.well-known/jwks`,
    })),
  };
}

const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The credentials a verifier's token carries (the whole credential, `jwtInclusion`). */
function credentialsOf(payload: JWTPayload): Array<Record<string, unknown>> {
  return [payload.verifiableCredential, payload.vc, ...list(payload.verifiablePresentation)]
    .flatMap(list)
    .map((c) => {
      if (typeof c !== "string") return c;
      try {
        const inner = decodeJwt(c);
        return inner.vc ?? inner;
      } catch {
        return undefined;
      }
    })
    .filter(isObject);
}

export function factsOf(payload: JWTPayload, organizationDid: string): CredentialFacts {
  const credentials = credentialsOf(payload);
  return {
    roles: [
      ...new Set(
        credentials.flatMap((c) =>
          list(c.credentialSubject).flatMap((s) =>
            list(isObject(s) ? s.roles : undefined)
              .filter((r) => isObject(r) && r.target === organizationDid)
              .flatMap((r) => list((r as Record<string, unknown>).names).map(String)),
          ),
        ),
      ),
    ],
    types: [...new Set(credentials.flatMap((c) => list(c.type).map(String)))],
    issuers: [
      ...new Set(
        credentials
          .map((c) => (isObject(c.issuer) ? c.issuer.id : c.issuer))
          .filter((i): i is string => typeof i === "string"),
      ),
    ],
  };
}

class Unreachable extends Error {}

export interface FdscJudge {
  judge(
    token: string,
    settings: FdscSetting[],
    policiesOf: PoliciesOf,
    lastSegment: string,
  ): Promise<ConsumerVerdict | undefined>;
  /**
   * The policy (uid) of the PAP that permits each required policy to a credential with these facts,
   * read and evaluated as for a request (the dry run of the workspace's consumers panel).
   */
  permitting(
    setting: FdscSetting,
    facts: CredentialFacts,
    policies: RequiredPolicy[],
    lastSegment: string,
  ): Promise<{ uids: Array<string | undefined> } | { unreachable: string }>;
}

export function fdscJudge(cacheMs: number): FdscJudge {
  const keySets = new TimedCache<ReturnType<typeof createLocalJWKSet>>(cacheMs, 100);
  const policySets = new TimedCache<Policy[]>(cacheMs, 1_000);

  const keysOf = (verifier: FdscSetting["verifiers"][number]) =>
    keySets.get(verifier.jwks, async () => {
      const answer = await callPeer(
        verifier.jwks,
        { headers: { accept: "application/json" } },
        "vc-verifiers",
      ).catch((err: unknown) => {
        throw new Unreachable(
          `The VC verifier ${verifier.name} could not be reached for its keys (${err instanceof PeerUnreachable ? err.cause : String(err)}).`,
        );
      });
      const body = answer.body as JSONWebKeySet | null;
      if (answer.status !== 200 || !Array.isArray(body?.keys))
        throw new Unreachable(`The VC verifier ${verifier.name} gave no key set (${answer.status}).`);
      return createLocalJWKSet(body);
    });

  /** Every policy the PAP holds for the workspace's service (or its global ones), page after page. */
  const policiesAt = (setting: FdscSetting) =>
    policySets.get(`${setting.place.pap.base}${setting.place.prefix}`, async () => {
      const found: Policy[] = [];
      for (let page = 0; page < 100; page++) {
        let answer;
        try {
          answer = await call(setting.place.pap, "GET", `${setting.place.prefix}?page=${page}&pageSize=100`);
        } catch (err) {
          if (err instanceof Problem)
            throw new Unreachable(`The policy administration point ${setting.papName} could not be reached.`);
          throw err;
        }
        // A PAP service that does not exist yet (its bare-text 404) holds no policy.
        if (answer.status === 404 && typeof answer.body === "string") break;
        if (answer.status !== 200 || !Array.isArray(answer.body))
          throw new Unreachable(
            `The policy administration point ${setting.papName} answered ${answer.status}.`,
          );
        found.push(...answer.body.map(shown));
        if (answer.body.length < 100) break;
      }
      return found;
    });

  async function judge(token: string, settings: FdscSetting[], policiesOf: PoliciesOf, lastSegment: string) {
    let iss: unknown;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      return undefined;
    }
    if (typeof iss !== "string") return undefined;
    const verdicts: ConsumerVerdict[] = [];
    for (const setting of settings) {
      const verifier = setting.verifiers.find((v) => v.issuers.includes(trimmed(iss)));
      if (!verifier) continue;
      const anonymous: Holder = {
        holder: "",
        holderKind: "fdsc",
        roles: [],
        workspaceId: setting.workspaceId,
        asked: [],
      };
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await keysOf(verifier), { issuer: iss, clockTolerance: 5 }));
      } catch (err) {
        if (err instanceof Unreachable) {
          verdicts.push(refused(anonymous, "registryUnreachable", err.message));
          continue;
        }
        const who = { ...anonymous, holder: String(decodeJwt(token).sub ?? "") };
        if (err instanceof errors.JWTExpired)
          verdicts.push(refused(who, "expired", "The token has expired."));
        else if (err instanceof errors.JWTClaimValidationFailed)
          verdicts.push(refused(who, "expired", `The token is not valid now (${err.claim}).`));
        else
          verdicts.push(
            refused(
              who,
              "badSignature",
              `The token is not signed by a key of the VC verifier ${verifier.name}.`,
            ),
          );
        continue;
      }
      if (![payload.aud ?? []].flat().includes(setting.clientId)) continue; // issued for another service
      const facts = factsOf(payload, setting.organizationDid);
      const issuers = facts.issuers;
      const derived = await policiesOf(setting.workspaceId);
      const who: Holder = {
        holder: String(payload.sub ?? issuers[0] ?? ""),
        holderKind: "fdsc",
        ...(issuers[0] ? { party: issuers[0] } : {}),
        roles: facts.roles,
        workspaceId: setting.workspaceId,
        asked: "policies" in derived ? derived.policies.map(describePolicy) : [],
      };
      if ("refused" in derived) {
        verdicts.push(refused(who, "policyDeny", `Refused: ${derived.refused}.`));
        continue;
      }
      let policies: Policy[];
      try {
        policies = await policiesAt(setting);
      } catch (err) {
        if (!(err instanceof Unreachable)) throw err;
        verdicts.push(refused(who, "registryUnreachable", err.message));
        continue;
      }
      const allowing = derived.policies.map((p) => permittingPolicy(policies, facts, p, lastSegment));
      const denied = derived.policies.filter((_, i) => !allowing[i]).map(describePolicy);
      if (!denied.length) {
        const uids = [...new Set(allowing)].join(", ");
        return permitted(who, `The ODRL policies of ${setting.papName} permit it (${uids}).`);
      }
      const roles = facts.roles.length ? facts.roles.join(", ") : "no role";
      verdicts.push(
        refused(
          who,
          facts.roles.length ? "policyDeny" : "noRole",
          `No ODRL policy of ${setting.papName} permits ${denied.join("; ")} to a credential with ${roles} for ${setting.organizationDid}.`,
        ),
      );
    }
    return strongest(verdicts);
  }

  async function permitting(
    setting: FdscSetting,
    facts: CredentialFacts,
    required: RequiredPolicy[],
    lastSegment: string,
  ) {
    try {
      const policies = await policiesAt(setting);
      return { uids: required.map((p) => permittingPolicy(policies, facts, p, lastSegment)) };
    } catch (err) {
      // As a request's decision: a failure is a PAP that cannot be asked, never an error page.
      return {
        unreachable:
          err instanceof Unreachable
            ? err.message
            : `No decision could be made: ${err instanceof Error ? err.message : String(err)}.`,
      };
    }
  }

  return { judge, permitting };
}
