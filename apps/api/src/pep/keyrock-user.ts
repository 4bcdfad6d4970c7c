import { PeerUnreachable, callPeer } from "../peers.ts";
import { reasonOf } from "../trust/registry.ts";

/** A user as Keyrock's `/user?access_token=` gives them, with the names of the roles they hold. */
export interface KeyrockUser {
  holder: string;
  application?: string;
  roleNames: string[];
}

export class PeerDown extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

const named = (list: unknown): string[] =>
  (Array.isArray(list) ? list : [])
    .map((r) => (r as { name?: unknown } | null)?.name)
    .filter((n): n is string => typeof n === "string");

/**
 * The user of a token at an identity manager: Keyrock answers 401 for a token it does not know
 * (or that expired), otherwise the user with `roles` (held directly) and `organizations[].roles`.
 */
export async function keyrockUser(
  url: string,
  name: string,
  token: string,
): Promise<KeyrockUser | undefined> {
  const target = new URL(url);
  target.searchParams.set("access_token", token);
  const answer = await callPeer(
    target.toString(),
    { headers: { accept: "application/json" } },
    "identity-managers",
  ).catch((err: unknown) => {
    if (err instanceof PeerUnreachable)
      throw new PeerDown(`The identity manager ${name} could not be reached (${err.cause}).`);
    throw err;
  });
  if (answer.status === 401 || answer.status === 404) return undefined;
  const body = answer.body as Record<string, unknown> | null;
  if (answer.status !== 200 || typeof body !== "object" || body === null)
    throw new PeerDown(`The identity manager ${name} answered ${answer.status}: ${reasonOf(answer.body)}.`);
  // A client_credentials token names an application and no user.
  const holder = [body.email, body.username, body.id].find((v) => typeof v === "string" && v);
  if (typeof holder !== "string") return undefined;
  const organizations = Array.isArray(body.organizations) ? body.organizations : [];
  return {
    holder,
    application: typeof body.app_id === "string" ? body.app_id : undefined,
    roleNames: [
      ...new Set([
        ...named(body.roles),
        ...organizations.flatMap((o) => named((o as { roles?: unknown } | null)?.roles)),
      ]),
    ],
  };
}
