/** What the PEP decided about a data-space consumer's request (consumers.ts). */
export type ConsumerReason =
  | "permit"
  | "expired"
  | "badSignature"
  | "noRole"
  | "registryDeny"
  | "registryUnreachable"
  | "policyDeny"
  | "untrustedChain";

export interface ConsumerVerdict {
  permit: boolean;
  /** When refused: 401 bad, expired or foreign token; 403 no role or a Deny; 503 registry, verifier or PAP unreachable. */
  status?: 401 | 403 | 503;
  reason: ConsumerReason;
  /** An English sentence for the log and the problem body. */
  detail: string;
  /** The user's e-mail (else username, else id), the party's EORI, or the credential's subject. */
  holder: string;
  holderKind: "ishare-user" | "ishare-party" | "fdsc";
  /** The iSHARE party (EORI) of a machine, or the issuer DID of a credential. */
  party?: string;
  /** Access subjects asked about (iSHARE roleName), or the credential's role names (FDSC). */
  roles: string[];
  workspaceId: string;
  /** The required policies asked about, for the decision log: "GET Shelf [ids] [attrs]". */
  asked: string[];
}

export type Holder = Pick<
  ConsumerVerdict,
  "holder" | "holderKind" | "party" | "roles" | "workspaceId" | "asked"
>;

const statusOf: Record<Exclude<ConsumerReason, "permit">, 401 | 403 | 503> = {
  expired: 401,
  badSignature: 401,
  untrustedChain: 401,
  noRole: 403,
  registryDeny: 403,
  policyDeny: 403,
  registryUnreachable: 503,
};

export const permitted = (who: Holder, detail: string): ConsumerVerdict => ({
  permit: true,
  reason: "permit",
  detail,
  ...who,
});

export const refused = (
  who: Holder,
  reason: Exclude<ConsumerReason, "permit">,
  detail: string,
): ConsumerVerdict => ({ permit: false, status: statusOf[reason], reason, detail, ...who });

/**
 * Of the verdicts of several workspaces on one tenant, the one to answer: a Permit, else the
 * refusal that says most (an unreachable peer, then a Deny, then no role, then a token problem).
 */
export function strongest(verdicts: ConsumerVerdict[]): ConsumerVerdict | undefined {
  const rank: Record<ConsumerReason, number> = {
    permit: 0,
    registryUnreachable: 1,
    registryDeny: 2,
    policyDeny: 2,
    noRole: 3,
    expired: 4,
    untrustedChain: 4,
    badSignature: 5,
  };
  return [...verdicts].sort((a, b) => rank[a.reason] - rank[b.reason])[0];
}
