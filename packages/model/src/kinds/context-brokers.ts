import { defineKind } from "../kind.ts";
import { address, description, implementation, name } from "../fields.ts";

export const contextBrokers = defineKind({
  kind: "context-brokers",
  urnType: "ContextBroker",
  routeName: "contextBrokers",
  scope: "platform",
  columns: ["host", "implementation"],
  fields: [
    name,
    description,
    ...address,
    { name: "multiTenancyEnabled", input: "boolean", default: false },
    { name: "paginationMaxLimit", input: "integer", required: true, min: 1 },
    // "orrery" is the broker embedded in Orrery (packages/broker); the spec's three stay selectable.
    ...implementation(["orion-ld", "scorpio", "stellio", "orrery"]),
    // An Authorization or API key header is a credential: its value is never read back.
    { name: "customHeaders", input: "headers", secretValues: true },
  ],
});

/** Implementations that keep several values of one attribute (datasetId): multi-valued properties need one. */
export const multiValuedBrokers: readonly string[] = ["scorpio", "stellio", "orrery"];
