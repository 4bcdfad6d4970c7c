import {
  credentialsConfigServices,
  policyAdministrationPoints,
  services,
  trustedIssuersLists,
} from "@orrery/model";
import { address } from "../context-data/broker-access.ts";
import type { MessageCode } from "../messages/say.ts";
import {
  CrossOriginRedirect,
  fetchWithin,
  PEER_TIMEOUT_MS,
  unreachableCause,
  type PeerKind,
} from "../peers.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";

type Row = NonNullable<Awaited<ReturnType<Records["find"]>>>;

/** A component of the FIWARE Data Space Connector, as Orrery reaches it. */
export interface Component {
  role: "pap" | "ccs" | "til";
  name: string;
  base: string;
  data: Record<string, unknown>;
}

/** What a component answered: its status, `Location`, and body (JSON parsed, else text, null when empty). */
export interface Answer {
  status: number;
  location: string | null;
  body: unknown;
}

const kindOfRole: Record<Component["role"], PeerKind> = {
  pap: policyAdministrationPoints.kind,
  ccs: credentialsConfigServices.kind,
  til: trustedIssuersLists.kind,
};

export const componentOf = (role: Component["role"], row: Row): Component => ({
  role,
  name: String(row.data.name),
  base: address(row.data).replace(/\/$/, ""),
  data: row.data,
});

/** `.` or `..`, as given or percent-encoded (`%2e`): a URL parser resolves them into another path. */
export const isDotSegment = (segment: string) => /^(\.|%2e){1,2}$/i.test(segment);

/**
 * One call to a component. `path` is built by the caller from encoded segments
 * (encodeURIComponent): ids and DIDs go in one segment each. A path with a dot segment is never
 * sent: the URL would name another resource of the component than the one meant.
 */
export async function call(
  component: Component,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const segments = path.split("?")[0]!.split("/");
  const dot = segments.find(isDotSegment);
  if (dot !== undefined)
    throw problem(400, "fdsc.dotSegment", { value: decodeURIComponent(dot), name: component.name });
  let response: Response;
  try {
    response = await fetchWithin(
      `${component.base}${path}`,
      {
        method,
        headers: {
          accept: "application/json, text/plain",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      PEER_TIMEOUT_MS,
      Infinity,
      kindOfRole[component.role],
    );
  } catch (err) {
    if (err instanceof CrossOriginRedirect)
      throw problem(502, "peer.crossOriginRedirect", {
        name: component.name,
        kind: kindOfRole[component.role],
        location: err.location,
      });
    throw problem(502, `${component.role}.unreachable` as MessageCode, {
      name: component.name,
      cause: unreachableCause(err),
    });
  }
  const text = await response.text();
  let parsed: unknown = text || null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // the component's text as it is (the PAP's Rego, its bare-string 404s)
  }
  return { status: response.status, location: response.headers.get("location"), body: parsed };
}

/**
 * The reason a component gives for a refusal, whatever its shape: the PAP's `message`, a problem's
 * `detail` (CCS, TIL, the verifier), a bare text, else its status alone.
 */
export function reasonOf(answer: Answer): string {
  const body = answer.body as Record<string, unknown> | string | null;
  if (typeof body === "string")
    return body
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 500);
  const said = body?.message ?? body?.detail ?? body?.title;
  return typeof said === "string" && said ? said : String(answer.status);
}

/** A 502 saying what the component answered (its status and body kept as they were for whoever reads more). */
export const refused = (component: Component, answer: Answer) =>
  problem(
    502,
    `${component.role}.refused` as MessageCode,
    { name: component.name, status: answer.status, reason: reasonOf(answer) },
    { peerStatus: answer.status, peerBody: answer.body },
  );

/** The workspace's service, which must be in FDSC mode, with the components it names. */
export async function fdscOfWorkspace(records: Records, workspaceId: string) {
  const workspace = await records.requireWorkspace(workspaceId);
  return fdscOfService(records, String(workspace.data.hasService));
}

export async function fdscOfService(records: Records, serviceId: string) {
  const service = await records.find(services, serviceId);
  if (!service) throw problem(404, "fdsc.noService", { id: serviceId });
  if (service.data.authorizationRequired !== true || service.data.authorizationMode !== "fdsc")
    throw problem(400, "fdsc.notFdsc", { name: String(service.data.name) });
  const [pap, ccs, til] = await Promise.all([
    records.find(policyAdministrationPoints, String(service.data.hasPolicyAdministrationPoint)),
    records.find(credentialsConfigServices, String(service.data.hasCredentialsConfigService)),
    records.find(trustedIssuersLists, String(service.data.hasTrustedIssuersList)),
  ]);
  if (!pap || !ccs || !til) throw problem(409, "workspace.incompleteService");
  return {
    service,
    pap: componentOf("pap", pap),
    ccs: componentOf("ccs", ccs),
    til: componentOf("til", til),
  };
}
