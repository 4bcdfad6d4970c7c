import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { contextBrokers } from "@orrery/model";
import { NgsiLdClient, NgsiLdError } from "@orrery/ngsi-ld";
import { unreachableReasons } from "../health/probe.ts";
import { notFound, problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { address, brokerProblem } from "./broker-access.ts";
import { ownBrokerBearer } from "../pep/internal.ts";
import { withoutEmpty } from "./subscriptions-routes.ts";

const brokerParams = z.object({ id: z.string() });
const registrationParams = brokerParams.extend({ registrationId: z.string().min(1) });
const uri = z.string().regex(/^[a-z][a-z0-9+.-]*:\S+$/i, "must be a URI");
const text = z.string().trim().min(1);
/** The broker's own tenant rule (NGSILD-Tenant, packages/broker request.ts). */
const tenant = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_.:\-/]+$/, "must be a tenant name (letters, digits, _ . : - /)");

const entityInfo = z
  .object({ id: uri.optional(), idPattern: text.optional(), type: text })
  .refine((e) => !(e.id && e.idPattern), "has an id or an idPattern, not both");

/** A context source registration (ETSI GS CIM 009 5.2.9) as the console writes it. */
const registrationFields = z.object({
  id: uri.optional(),
  registrationName: text.optional(),
  description: text.optional(),
  endpoint: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  information: z
    .array(
      z
        .object({
          entities: z.array(entityInfo).optional(),
          propertyNames: z.array(text).optional(),
          relationshipNames: z.array(text).optional(),
        })
        .refine(
          (i) => i.entities || i.propertyNames || i.relationshipNames,
          "needs entities, property names or relationship names",
        ),
    )
    .min(1),
  mode: z.enum(["inclusive", "exclusive", "redirect", "auxiliary"]).optional(),
  operations: z.array(text).optional(),
  tenant: tenant.optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
});
// "Empty fields omitted": an empty text, list or object is dropped before validation.
const registrationInput = z.preprocess(withoutEmpty, registrationFields);
const registration = z.record(z.string(), z.unknown());
const tenantQuery = z.object({ tenant: tenant.optional() });

/** How long the explanation of an unreachable broker may look at its certificate. */
const EXPLAIN_MS = 5_000;

/**
 * Runs a call to the broker; one that cannot be reached is explained as its connection check
 * explains it (a broker that does not speak TLS, its certificate's problems, a refused connection),
 * not in OpenSSL's words; other failures as every broker call says them (broker-access.ts).
 */
async function viaBroker<T>(baseUrl: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const failure = err instanceof NgsiLdError ? err.failure : undefined;
    if (!(err instanceof NgsiLdError) || failure?.kind !== "unreachable" || !failure.code)
      throw brokerProblem(err);
    const cause = Object.assign(new Error(failure.cause), { code: failure.code });
    const [reason, more] = await unreachableReasons({ cause }, baseUrl, EXPLAIN_MS);
    throw problem(
      502,
      more ? "broker.unreachableBecauseBoth" : "broker.unreachableBecause",
      // Nothing of the client's own text, which is OpenSSL's: the broker never answered.
      { broker: err.broker, reason: reason!, ...(more ? { more } : {}) },
    );
  }
}

/**
 * A context broker's context source registrations (any implementation: Orion-LD, Scorpio, Stellio
 * and the embedded broker answer /csourceRegistrations), read and written through the broker's
 * own address and custom headers, in the tenant the console names when the broker is
 * multi-tenant. The broker's refusals travel back as problems naming it (broker-access.ts).
 */
export function registerRegistrationRoutes(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["context brokers"];
  const client = async (brokerId: string, tenantName?: string) => {
    const row = await records.find(contextBrokers, brokerId);
    if (!row) throw notFound(brokerId);
    const d = row.data;
    const url = address(d);
    const broker = new NgsiLdClient({
      baseUrl: url,
      implementationName: String(d.implementationName),
      label: String(d.name),
      tenant: d.multiTenancyEnabled === true ? tenantName : undefined,
      customHeaders: records.secretValues(row, "customHeaders"),
      bearer: ownBrokerBearer(address(d)),
      pageSize: Number(d.paginationMaxLimit) || undefined,
    });
    return { broker, url };
  };

  api.get(
    "/api/context-brokers/:id/registrations",
    {
      schema: {
        tags,
        summary: "The broker's context source registrations",
        params: brokerParams,
        querystring: tenantQuery,
        response: { 200: z.array(registration) },
      },
    },
    async (request) => {
      const { broker, url } = await client(request.params.id, request.query.tenant);
      return viaBroker(url, () => broker.registrations());
    },
  );

  api.post(
    "/api/context-brokers/:id/registrations",
    {
      schema: {
        tags,
        summary: "Register a context source in the broker (id generated by the broker when absent)",
        params: brokerParams,
        querystring: tenantQuery,
        body: registrationInput,
      },
    },
    async (request, reply) => {
      const { broker, url } = await client(request.params.id, request.query.tenant);
      const created = await viaBroker(url, async () =>
        broker.getRegistration(await broker.createRegistration(request.body)),
      );
      return reply.code(201).send(created);
    },
  );

  api.delete(
    "/api/context-brokers/:id/registrations/:registrationId",
    {
      schema: {
        tags,
        summary: "Delete a context source registration",
        params: registrationParams,
        querystring: tenantQuery,
      },
    },
    async (request, reply) => {
      const { broker, url } = await client(request.params.id, request.query.tenant);
      await viaBroker(url, () => broker.deleteRegistration(request.params.registrationId));
      return reply.code(204).send();
    },
  );
}
