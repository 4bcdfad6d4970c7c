import { contextBrokers, identityManagerGrants, identityManagers, services } from "@orrery/model";
import { NgsiLdClient } from "@orrery/ngsi-ld";
import { Problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";

type Row = NonNullable<Awaited<ReturnType<Records["find"]>>>;

const address = (d: Record<string, unknown>) =>
  `${String(d.scheme)}://${String(d.host)}:${String(d.port)}${String(d.path ?? "")}`;

/** An OAuth 2.0 token from the service's identity manager grant (Keyrock contract: Basic client auth, form body). */
async function oauth2Token(records: Records, service: Row["data"]): Promise<string> {
  const idm = await records.find(identityManagers, String(service.hasIdentityManager));
  const grantRow = await records.find(identityManagerGrants, String(service.hasIdentityManagerGrant));
  if (!idm || !grantRow)
    throw new Problem(409, "Incomplete service", "The service's identity manager or grant no longer exists.");
  const grant = grantRow.data;
  const secret = (await records.secret(identityManagerGrants, grantRow.id, "clientSecret")) ?? "";
  const form = new URLSearchParams({ grant_type: String(grant.grantType) });
  if (grant.grantType === "password") {
    form.set("username", String(grant.username));
    form.set("password", (await records.secret(identityManagerGrants, grantRow.id, "password")) ?? "");
  }
  let response: Response;
  try {
    response = await fetch(`${address(idm.data)}${String(idm.data.oauth2TokenPath)}`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${String(grant.clientId)}:${secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    throw new Problem(
      502,
      "Bad gateway",
      `The identity manager ${String(idm.data.name)} could not be reached: ${(err as Error).message}`,
    );
  }
  const body = (await response.json().catch(() => ({}))) as { access_token?: string };
  if (!response.ok || !body.access_token)
    throw new Problem(
      502,
      "Bad gateway",
      `The identity manager ${String(idm.data.name)} refused the grant (${response.status}).`,
    );
  return body.access_token;
}

/**
 * The NGSI-LD client for a workspace's broker: its address, profile, custom headers, the tenant
 * when the broker is multi-tenant, the workspace's @context and the service's token.
 */
export async function workspaceBroker(
  records: Records,
  workspace: Row,
  context: string | undefined,
): Promise<NgsiLdClient> {
  const service = await records.find(services, String(workspace.data.hasService));
  const broker = service && (await records.find(contextBrokers, String(service.data.hasContextBroker)));
  if (!service || !broker)
    throw new Problem(
      409,
      "Incomplete workspace",
      "The workspace's service or context broker no longer exists.",
    );
  let bearer: string | undefined;
  if (service.data.authorizationRequired === true) {
    if (service.data.authorizationMode !== "oauth2") {
      throw new Problem(
        409,
        "Verifiable-credential login needed",
        "This service uses SIOP 2: the server cannot call its broker without a user's verifiable-credential session.",
      );
    }
    bearer = await oauth2Token(records, service.data);
  }
  return new NgsiLdClient({
    baseUrl: address(broker.data),
    implementationName: String(broker.data.implementationName),
    label: String(broker.data.name),
    tenant:
      broker.data.multiTenancyEnabled === true
        ? (workspace.data.contextBrokerTenant as string | undefined)
        : undefined,
    customHeaders: broker.data.customHeaders as Record<string, string> | undefined,
    context,
    bearer,
  });
}
