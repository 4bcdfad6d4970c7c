/**
 * A first call with a broker client's key, for its key dialog: on its first named tenant (with no
 * NGSILD-Tenant when it reaches the default tenant only), on the embedded broker of this console's
 * address. Tenants are letters, digits,
 * - and _ and keys base64url (the model and the API make sure), so nothing needs quoting.
 */
export function curlExample(key: string, tenants: readonly string[], origin: string): string {
  const tenant = tenants.find((t) => t !== "");
  return [
    `curl -H "Authorization: Bearer ${key}"`,
    ...(tenant ? [`  -H "NGSILD-Tenant: ${tenant}"`] : []),
    `  "${origin}/ngsi-ld/v1/entities?type=<type>"`,
  ].join(" \\\n");
}
