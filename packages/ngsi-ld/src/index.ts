export { NgsiLdClient, NgsiLdError, type ClientOptions, type Entity } from "./client.ts";
export { profileOf, profiles, type BrokerProfile } from "./profiles.ts";
