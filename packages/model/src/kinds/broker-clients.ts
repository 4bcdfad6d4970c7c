import { defineKind } from "../kind.ts";
import { description, name, tenantName } from "../fields.ts";

/**
 * A machine that calls the embedded broker (/ngsi-ld/v1) with a key of its own: an IoT agent, a
 * script, another broker federating. Its key is made by the server at creation (or by "New key"),
 * shown once in that answer, and kept only as a SHA-256 hash (apps/api/src/broker-clients). A
 * revoked client keeps its record, for the record, and no key works for it again.
 *
 * `tenants` are the tenants of the embedded broker it may reach; the empty string "" stands for the
 * default tenant (requests without NGSILD-Tenant), which the console shows as "(default tenant)".
 * `access` write implies read.
 */
export const brokerClients = defineKind({
  kind: "broker-clients",
  urnType: "BrokerClient",
  routeName: "brokerClients",
  scope: "platform",
  columns: ["access", "tenants", "revoked"],
  fields: [
    name,
    description,
    {
      name: "tenants",
      input: "strings",
      required: true,
      pattern: tenantName,
      format: "ngsiName",
      maxLength: 100,
      maxItems: 100,
      blank: "brokerClients.defaultTenant",
    },
    { name: "access", input: "enum", options: ["read", "write"], required: true, default: "read" },
    { name: "keyIssuedAt", input: "instant", readOnly: true },
    { name: "revoked", input: "boolean", readOnly: true },
    { name: "revokedAt", input: "instant", readOnly: true },
  ],
});
