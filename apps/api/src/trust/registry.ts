import { JSDOM } from "jsdom";
import { authorizationRegistries, authorizationRegistryGrants } from "@orrery/model";
import type { Message } from "../messages/say.ts";
import { notFound, problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { requireOwnGrant } from "./grant-peer.ts";
import { RegistryFailure, type Registry, type RegistryGrant } from "./ishare.ts";

/** A registry and a grant as the iSHARE client takes them, from their records (the key decrypted). */
export async function registryAndGrant(
  records: Records,
  registryId: string,
  grantId: string,
  options: { bind?: boolean } = {},
): Promise<{ registry: Registry; grant: RegistryGrant }> {
  const registry = await records.find(authorizationRegistries, registryId);
  if (!registry) throw notFound(registryId);
  const grant = await records.find(authorizationRegistryGrants, grantId);
  if (!grant) throw notFound(grantId);
  await requireOwnGrant(records, grant, registry, options);
  return {
    registry: registry.data as unknown as Registry,
    grant: {
      identifier: String(grant.data.identifier),
      certificates: grant.data.certificates as string[],
      privateKey: (await records.secret(authorizationRegistryGrants, grant.id, "privateKey")) ?? "",
    },
  };
}

/** What the failed call was about: the party the grant signs in as, the access subject asked for. */
export interface RegistryCall {
  party: string;
  subject?: string;
}

/**
 * What a registry's refusal means, as a catalogued message: Keyrock's 403 on a policy is its rule
 * that only its own party writes policies; a 404 with an empty body on a delegation request is a
 * subject it has no policy for; otherwise the registry's own words.
 */
export function registryMessage(failure: RegistryFailure, registry: Registry, call: RegistryCall): Message {
  const { name, identifier: owner } = registry;
  const { step, status, body } = failure;
  if (status === undefined)
    return { code: "registry.unreachable", params: { name, step, cause: String(body) } };
  if (step === "policy" && status === 403)
    return { code: "registry.policyForbidden", params: { name, owner, party: call.party } };
  if (step === "delegation" && status === 404 && (body === null || body === ""))
    return { code: "registry.noPolicy", params: { name, subject: call.subject ?? "" } };
  return { code: "registry.refused", params: { name, step, status, reason: reasonOf(body) } };
}

/** A registry's refusal or silence as a 502 problem carrying its status and body (a page's reason, not its markup). */
export function registryProblem(err: unknown, registry: Registry, call: RegistryCall): never {
  if (!(err instanceof RegistryFailure)) throw err;
  const { code, params } = registryMessage(err, registry, call);
  const body = isPage(err.body) ? reasonOf(err.body) : err.body;
  throw problem(
    502,
    code,
    params,
    err.status === undefined ? {} : { registryStatus: err.status, registryBody: body ?? null },
  );
}

const isPage = (body: unknown): body is string =>
  typeof body === "string" && /<(!doctype|html|body|p|div|h1)\b/i.test(body);

/** What a peer's error body says, in one line: its description, error or detail, a page's reason, else the body itself. */
export function reasonOf(body: unknown): string {
  if (isPage(body)) return pageReason(body).slice(0, 300);
  if (typeof body === "string") return body.slice(0, 300);
  const b = (body ?? {}) as Record<string, unknown>;
  const said = [b.error_description, b.error, b.detail, b.title, b.summary].find(
    (v) => typeof v === "string",
  );
  return String(said ?? JSON.stringify(body ?? null)).slice(0, 300);
}

/** An OAuth 2.0 error code (RFC 6749 5.2, RFC 6750 3.1) at the start of a sentence. */
const oauthError =
  /^(invalid_request|invalid_client|invalid_grant|unauthorized_client|unsupported_grant_type|invalid_scope|invalid_token|insufficient_scope|access_denied|server_error)\b/;

/**
 * The readable reason of an HTML error page (Keyrock answers its token errors with its OAuth error
 * page, `400 text/html`): the text of its paragraphs and headings without scripts or navigation;
 * the one Keyrock labels "error -", else one starting with an OAuth error code, else the first two.
 */
function pageReason(html: string): string {
  const { document } = new JSDOM(html).window;
  for (const noise of document.querySelectorAll("script, style, template, head, nav, header, footer"))
    noise.remove();
  const blocks = [...document.querySelectorAll("h1, h2, h3, p, li, pre, dd, td")]
    .filter((e) => !e.querySelector("p, li, pre, dd, td"))
    .map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const labelled = blocks.map((b) => /^error\s+[-:]\s+(.+)$/i.exec(b)?.[1]).find(Boolean);
  return (
    labelled ??
    blocks.find((b) => oauthError.test(b)) ??
    (blocks.slice(0, 2).join(" ") || (document.body?.textContent ?? "").replace(/\s+/g, " ").trim())
  );
}
