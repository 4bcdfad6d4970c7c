export { ngsiLdBroker, type BrokerOptions } from "./broker.ts";
export type { EntityReader } from "./reader.ts";
export type { LocalDelivery } from "./delivery.ts";
export type { FederationOptions } from "./federation.ts";
export { brokerVersion } from "./version.ts";
export { brokerMigrations } from "./migrations.ts";
export { CORE_CONTEXT_URL } from "./contexts.ts";
export type { BrokerDatabase } from "./storage.ts";
export { linkedContext } from "./request.ts";
