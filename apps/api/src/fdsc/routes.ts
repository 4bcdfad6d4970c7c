import type { FastifyInstance } from "fastify";
import type { Records } from "../resources/records.ts";
import { registerCredentialRoutes } from "./credential-routes.ts";
import { registerIssuerRoutes } from "./issuer-routes.ts";
import { registerPolicyRoutes } from "./policy-routes.ts";

/** The FIWARE Data Space Connector's trust layer, driven from Orrery (notes in README, "FDSC mode"). */
export function registerFdscRoutes(app: FastifyInstance, records: Records): void {
  registerPolicyRoutes(app, records);
  registerCredentialRoutes(app, records);
  registerIssuerRoutes(app, records);
}
