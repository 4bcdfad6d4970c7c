/**
 * A service's credential configuration as the form edits it, to and from what the credentials
 * configuration service holds (notes/fdsc.md §3). What the form does not edit (presentation
 * definitions, DCQL, flat claims, fields of newer versions) is kept aside and written back.
 */

type Json = Record<string, unknown>;

export interface ClaimDraft {
  originalKey: string;
  newKey: string;
}

export interface CredentialDraft {
  type: string;
  /** One list a line: a URL (EBSI-style), or "gaia-x <url>" / "ebsi <url>". */
  participants: string;
  /** One trusted issuers list URL a line. */
  issuers: string;
  requireCompliance: boolean;
  holderVerification: boolean;
  holderClaim: string;
  jwtEnabled: boolean;
  fullInclusion: boolean;
  claims: ClaimDraft[];
  rest: Json;
}

export interface ScopeDraft {
  name: string;
  credentials: CredentialDraft[];
  rest: Json;
}

export interface ConfigDraft {
  defaultOidcScope: string;
  authorizationType: "FRONTEND_V2" | "DEEPLINK";
  scopes: ScopeDraft[];
  rest: Json;
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

export function newCredential(issuersList?: string): CredentialDraft {
  return {
    type: "",
    participants: "",
    issuers: issuersList ?? "",
    requireCompliance: false,
    holderVerification: false,
    holderClaim: "",
    // Needed for roles: the PAP's Rego reads them from the credential embedded in the token.
    jwtEnabled: true,
    fullInclusion: true,
    claims: [],
    rest: {},
  };
}

export const newConfig = (issuersList?: string): ConfigDraft => ({
  defaultOidcScope: "default",
  authorizationType: "FRONTEND_V2",
  scopes: [{ name: "default", credentials: [newCredential(issuersList)], rest: {} }],
  rest: {},
});

function credentialDraft(c: Json): CredentialDraft {
  const {
    type,
    trustedParticipantsLists,
    trustedIssuersLists,
    requireCompliance,
    holderVerification,
    jwtInclusion,
    ...rest
  } = c;
  const jwt = (jwtInclusion ?? {}) as Json;
  const holder = (holderVerification ?? {}) as Json;
  return {
    type: String(type ?? ""),
    participants: ((trustedParticipantsLists as unknown[] | undefined) ?? [])
      .map((p) => (typeof p === "string" ? p : `${String((p as Json).type)} ${String((p as Json).url)}`))
      .join("\n"),
    issuers: ((trustedIssuersLists as string[] | undefined) ?? []).join("\n"),
    requireCompliance: requireCompliance === true,
    holderVerification: holder.enabled === true,
    holderClaim: String(holder.claim ?? ""),
    jwtEnabled: jwt.enabled !== false,
    fullInclusion: jwt.fullInclusion === true,
    claims: ((jwt.claimsToInclude as Json[] | undefined) ?? []).map((k) => ({
      originalKey: String(k.originalKey ?? ""),
      newKey: String(k.newKey ?? ""),
    })),
    rest,
  };
}

export function configDraft(config: Json): ConfigDraft {
  const { id: _id, defaultOidcScope, authorizationType, oidcScopes, ...rest } = config;
  return {
    defaultOidcScope: String(defaultOidcScope ?? ""),
    authorizationType: authorizationType === "DEEPLINK" ? "DEEPLINK" : "FRONTEND_V2",
    scopes: Object.entries((oidcScopes ?? {}) as Record<string, Json>).map(([name, scope]) => {
      const { credentials, ...scopeRest } = scope;
      return { name, credentials: ((credentials as Json[]) ?? []).map(credentialDraft), rest: scopeRest };
    }),
    rest,
  };
}

function participantOf(line: string): unknown {
  const [first, second] = line.split(/\s+/);
  return second && (first === "gaia-x" || first === "ebsi") ? { type: first, url: second } : line;
}

/** What the API takes (PUT …/credential-configuration). */
export function configOf(draft: ConfigDraft): Json {
  return {
    ...draft.rest,
    defaultOidcScope: draft.defaultOidcScope,
    authorizationType: draft.authorizationType,
    oidcScopes: Object.fromEntries(
      draft.scopes.map((scope) => [
        scope.name.trim(),
        {
          ...scope.rest,
          credentials: scope.credentials.map((c) => ({
            ...c.rest,
            type: c.type.trim(),
            trustedParticipantsLists: lines(c.participants).map(participantOf),
            trustedIssuersLists: lines(c.issuers),
            requireCompliance: c.requireCompliance,
            holderVerification: {
              enabled: c.holderVerification,
              ...(c.holderClaim.trim() ? { claim: c.holderClaim.trim() } : {}),
            },
            jwtInclusion: {
              enabled: c.jwtEnabled,
              fullInclusion: c.fullInclusion,
              claimsToInclude: c.claims
                .filter((k) => k.originalKey.trim())
                .map((k) => ({
                  originalKey: k.originalKey.trim(),
                  ...(k.newKey.trim() ? { newKey: k.newKey.trim() } : {}),
                })),
            },
          })),
        },
      ]),
    ),
  };
}
