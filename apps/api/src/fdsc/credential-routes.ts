import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { fieldError, invalid, problem, problemSchema } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { call, fdscOfService, reasonOf, refused, type Answer, type Component } from "./peer.ts";

const url = z
  .string()
  .min(1)
  .max(2000)
  .regex(/^https?:\/\/\S+$/);
const text = z.string().min(1).max(200);

/**
 * The credential configuration of one service, as both the standalone Credentials Config Service
 * (3.4) and the verifier's own `/service` API take it (notes/fdsc.md §3). What Orrery does not edit
 * (a presentation definition, DCQL, flat claims) passes through as it is, so that a save keeps it.
 */
const credential = z
  .object({
    type: text,
    trustedParticipantsLists: z
      .array(z.union([url, z.object({ type: z.enum(["ebsi", "gaia-x"]), url }).strict()]))
      .max(20)
      .optional(),
    trustedIssuersLists: z.array(url).max(20).optional(),
    holderVerification: z.object({ enabled: z.boolean(), claim: z.string().max(200).optional() }).optional(),
    requireCompliance: z.boolean().optional(),
    jwtInclusion: z
      .object({
        enabled: z.boolean().optional(),
        fullInclusion: z.boolean().optional(),
        claimsToInclude: z
          .array(z.object({ originalKey: text, newKey: z.string().max(200).optional() }).strict())
          .max(50)
          .optional(),
      })
      .strict()
      .optional(),
  })
  .passthrough();
const scope = z.object({ credentials: z.array(credential).min(1).max(20) }).passthrough();
const configuration = z
  .object({
    defaultOidcScope: text,
    authorizationType: z.enum(["FRONTEND_V2", "DEEPLINK"]).optional(),
    oidcScopes: z.record(z.string().min(1).max(100).regex(/^\S+$/), scope),
  })
  .passthrough();

/** A read configuration: the component's, with where it lives. */
const answered = z.object({
  id: z.string(),
  component: z.string(),
  implementationName: z.string(),
  configuration: z.record(z.string(), z.unknown()),
});

/** The two variants answer "no such service" differently: an empty 404 (CCS), an RFC 7807 not-found (verifier). */
const absent = (answer: Answer) => answer.status === 404;

export function registerCredentialRoutes(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const path = "/api/services/:id/credential-configuration";
  const tags = ["credential-configuration"];
  const params = z.object({ id: z.string() });
  const errors = { 400: problemSchema, 404: problemSchema, 409: problemSchema, 502: problemSchema };

  /** The service (FDSC mode), its CCS, and its id there: the client id the verifier serves it at. */
  const placeOf = async (serviceId: string) => {
    const { service, ccs, til } = await fdscOfService(records, serviceId);
    const id = String(service.data.clientId);
    return { ccs, til, id, at: `/service/${encodeURIComponent(id)}` };
  };
  const read = async (ccs: Component, at: string, id: string) => {
    const answer = await call(ccs, "GET", at);
    if (absent(answer)) return undefined;
    if (answer.status !== 200 || !answer.body || typeof answer.body !== "object") throw refused(ccs, answer);
    return {
      id,
      component: ccs.name,
      implementationName: String(ccs.data.implementationName),
      configuration: answer.body as Record<string, unknown>,
    };
  };

  api.get(
    path,
    {
      schema: {
        tags,
        summary:
          "The credential configuration of a service in FDSC mode, as its credentials configuration service holds it",
        params,
        response: { 200: answered, ...errors },
      },
    },
    async (request) => {
      const { ccs, id, at } = await placeOf(request.params.id);
      const found = await read(ccs, at, id);
      if (!found) throw problem(404, "ccs.noConfiguration", { id, name: ccs.name });
      return found;
    },
  );

  api.put(
    path,
    {
      schema: {
        tags,
        summary:
          "Write the credential configuration of a service in FDSC mode (created at the CCS when absent, else replaced) and read it back",
        params,
        body: configuration,
        response: { 200: answered, ...errors },
      },
    },
    async (request) => {
      // Checked here too: both variants refuse it, each in its own words.
      if (!(request.body.defaultOidcScope in request.body.oidcScopes))
        throw invalid([fieldError("defaultOidcScope", "ccs.defaultScope")]);
      const { ccs, id, at } = await placeOf(request.params.id);
      const body = { ...request.body, id };
      const existing = await call(ccs, "GET", at);
      if (existing.status !== 200 && !absent(existing)) throw refused(ccs, existing);
      // POST answers 201: an empty body at the standalone CCS, the service at the verifier; PUT 200.
      const written = absent(existing)
        ? await call(ccs, "POST", "/service", body)
        : await call(ccs, "PUT", at, body);
      if (written.status === 400)
        throw problem(400, "ccs.invalid", { name: ccs.name, reason: reasonOf(written) });
      if (written.status === 409)
        throw problem(409, "ccs.conflict", { name: ccs.name, reason: reasonOf(written) });
      if (written.status !== 200 && written.status !== 201) throw refused(ccs, written);
      const back = await read(ccs, at, id);
      if (!back) throw problem(502, "ccs.notKept", { name: ccs.name, id });
      return back;
    },
  );

  api.delete(
    path,
    {
      schema: {
        tags,
        summary: "Remove the credential configuration of a service in FDSC mode from its CCS",
        params,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      const { ccs, at } = await placeOf(request.params.id);
      const answer = await call(ccs, "DELETE", at);
      if (answer.status !== 204 && answer.status !== 200 && !absent(answer)) throw refused(ccs, answer);
      return reply.code(204).send();
    },
  );

  // What the console offers as a credential's trusted issuers list: the service's own list, by its address.
  api.get(
    `${path}/defaults`,
    {
      schema: {
        tags,
        summary: "The trusted issuers list address a credential of this service would name (its TIL's)",
        params,
        response: { 200: z.object({ clientId: z.string(), trustedIssuersList: z.string() }), ...errors },
      },
    },
    async (request) => {
      const { til, id } = await placeOf(request.params.id);
      return { clientId: id, trustedIssuersList: til.base };
    },
  );
}
