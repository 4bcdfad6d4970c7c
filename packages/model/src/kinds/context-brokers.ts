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
    ...implementation(["orion-ld", "scorpio", "stellio"]),
    { name: "customHeaders", input: "headers" },
  ],
});
