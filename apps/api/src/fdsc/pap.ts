import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import {
  call,
  fdscOfWorkspace,
  isDotSegment,
  reasonOf,
  refused,
  type Answer,
  type Component,
} from "./peer.ts";

/** A policy as Orrery shows it: the PAP's, with its ODRL parsed (the PAP keeps it as a JSON string). */
export interface Policy {
  id: string;
  uid: string;
  odrl: Record<string, unknown>;
  rego: string;
}

/** A PAP's policy as read: `{id, "odrl:uid", odrl: "<JSON>", rego}`. */
export function shown(body: unknown): Policy {
  const p = (body ?? {}) as Record<string, unknown>;
  let odrl: Record<string, unknown> = {};
  try {
    odrl =
      typeof p.odrl === "string"
        ? (JSON.parse(p.odrl) as Record<string, unknown>)
        : ((p.odrl ?? {}) as never);
  } catch {
    // a PAP that kept something else than JSON: shown empty, the Rego still says what it does
  }
  return { id: String(p.id), uid: String(p["odrl:uid"] ?? ""), odrl, rego: String(p.rego ?? "") };
}

/** Where a workspace's policies live: its service's PAP service (`papServiceId`), else the PAP's global policies. */
export interface PapPlace {
  pap: Component;
  sid?: string;
  prefix: string;
}

export async function papOf(records: Records, workspaceId: string): Promise<PapPlace> {
  const { service, pap } = await fdscOfWorkspace(records, workspaceId);
  const sid = service.data.papServiceId as string | undefined;
  return { pap, sid, prefix: sid ? `/service/${encodeURIComponent(sid)}/policy` : "/policy" };
}

/**
 * A policy's path in the PAP. Its id is one encoded segment, and never `.` or `..` (nor their
 * percent-encoded forms, which URL parsers treat alike): `/service/{sid}/policy/..` would be sent
 * as `/service/{sid}/`, and a DELETE there removes the PAP service with all its policies.
 */
export function policyPath(at: PapPlace, id: string): string {
  if (isDotSegment(id)) throw problem(400, "pap.dotId", { id });
  return `${at.prefix}/${encodeURIComponent(id)}`;
}

/** A PAP's unknown-service 404 is a bare text, not its JSON error shape. */
export const unknownService = (answer: Answer) => answer.status === 404 && typeof answer.body === "string";

/** Writes a policy (POST to create, PUT to replace) with a PAP service that may not exist yet: made on the first write. */
export async function writePolicy(at: PapPlace, method: "POST" | "PUT", path: string, odrl: unknown) {
  let answer = await call(at.pap, method, path, odrl);
  if (at.sid && unknownService(answer)) {
    const made = await call(at.pap, "POST", "/service", { id: at.sid });
    if (made.status !== 200) throw refused(at.pap, made);
    answer = await call(at.pap, method, path, odrl);
  }
  if (answer.status === 400)
    throw problem(400, "pap.invalidPolicy", { name: at.pap.name, reason: reasonOf(answer) });
  if (answer.status === 409)
    throw problem(409, "pap.locked", { name: at.pap.name, reason: reasonOf(answer) });
  if (answer.status !== 200) throw refused(at.pap, answer);
  return answer;
}

/** The policy as the PAP now returns it (what OPA will read), or a 502 when it does not. */
export async function readPolicy(pap: Component, path: string): Promise<Policy> {
  const answer = await call(pap, "GET", path);
  if (answer.status === 404) throw problem(502, "pap.notKept", { name: pap.name });
  if (answer.status !== 200) throw refused(pap, answer);
  return shown(answer.body);
}

/** Removes a policy; the PAP answers 204 whether or not it had it. */
export async function deletePolicy(at: PapPlace, id: string): Promise<void> {
  const answer = await call(at.pap, "DELETE", policyPath(at, id));
  if (answer.status !== 204 && answer.status !== 200 && !unknownService(answer))
    throw refused(at.pap, answer);
}
