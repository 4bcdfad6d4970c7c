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
    { name: "customHeaders", input: "headers" },
  ],
});

/** Implementations that keep several values of one attribute (datasetId): multi-valued properties need one. */
export const multiValuedBrokers: readonly string[] = ["scorpio", "stellio", "orrery"];
