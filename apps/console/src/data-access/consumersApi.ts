import { useQuery } from "@tanstack/react-query";
import { get } from "../api.ts";

export const DRY_RUN_METHODS = ["GET", "POST", "PATCH", "DELETE"] as const;

/** What the embedded broker's PEP would decide now for one method (GET /api/workspace/{id}/data-access/consumers). */
export interface DryRunDecision {
  method: (typeof DRY_RUN_METHODS)[number];
  permit: boolean;
  reason: string;
  detail: string;
}

export interface DryRunRow {
  entityType: string;
  /** A data service of the role names this type (else only the data model does). */
  granted: boolean;
  decisions: DryRunDecision[];
  summary: string;
}

export interface ConsumerGuide {
  mode: "none" | "ishare" | "fdsc";
  onEmbeddedBroker: boolean;
  /** false with BROKER_AUTH=open: the embedded broker answers anyone. */
  enforced: boolean;
  broker: { url: string; tenant: string | null; context: string | null };
  ishareUser: { identityManager: string; tokenUrl: string; grantType: string; clientId: string } | null;
  ishareParty: { registry: string; audience: string[] } | null;
  fdsc: {
    clientId: string;
    organizationDid: string;
    grantType: string;
    verifiers: Array<{ name: string; tokenUrl: string }>;
  } | null;
  roles: Array<{ id: string; name: string; roleName: string; credentialType: string; rows: DryRunRow[] }>;
}

export const consumersPath = (workspaceId: string) => `/workspace/${workspaceId}/data-access/consumers`;

/** The guide of a workspace's consumers, asked only once the panel is open (it asks the registry or the PAP). */
export function useConsumerGuide(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["data-access", "consumers", workspaceId],
    queryFn: () => get<ConsumerGuide>(consumersPath(workspaceId)),
    enabled,
  });
}

const CONTEXT_REL = "http://www.w3.org/ns/json-ld#context";
/** A value in single quotes for a POSIX shell. */
const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The curl command that reads one entity type from the embedded broker with a consumer's token. */
export function readCommand(guide: ConsumerGuide, entityType: string): string {
  const lines = [`curl -H "Authorization: Bearer $TOKEN"`];
  if (guide.broker.tenant) lines.push(`-H ${quoted(`NGSILD-Tenant: ${guide.broker.tenant}`)}`);
  if (guide.broker.context)
    lines.push(
      `-H ${quoted(`Link: <${guide.broker.context}>; rel="${CONTEXT_REL}"; type="application/ld+json"`)}`,
    );
  lines.push(quoted(`${guide.broker.url}/entities?type=${encodeURIComponent(entityType)}`));
  return lines.join(" \\\n  ");
}

/** The curl command that gets a token, for the workspace's trust mode; undefined when no consumer gets one. */
export function tokenCommand(guide: ConsumerGuide): string | undefined {
  if (guide.ishareUser)
    return [
      `TOKEN=$(curl -s -u ${quoted(`${guide.ishareUser.clientId}:CLIENT_SECRET`)}`,
      `-d grant_type=password -d username=EMAIL -d password=PASSWORD`,
      `${quoted(guide.ishareUser.tokenUrl)} | jq -r .access_token)`,
    ].join(" \\\n  ");
  const verifier = guide.fdsc?.verifiers[0];
  if (verifier)
    return [
      `TOKEN=$(curl -s -d grant_type=vp_token -d vp_token=PRESENTATION_BASE64URL -d scope=SCOPE`,
      `${quoted(verifier.tokenUrl)} | jq -r .access_token)`,
    ].join(" \\\n  ");
  return undefined;
}
