import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { trustedIssuersLists } from "@orrery/model";
import { fieldError, invalid, notFound, problem, problemSchema } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { call, componentOf, reasonOf, refused, type Component } from "./peer.ts";

const did = z
  .string()
  .min(1)
  .max(500)
  .regex(/^did:[a-z0-9]+:\S+$/);
const instant = z.iso.datetime({ offset: true });

/** A trusted issuer as the TIL's management API takes it (api/trusted-issuers-list.yaml, README example). */
const issuerSchema = z
  .object({
    did,
    credentials: z
      .array(
        z
          .object({
            credentialsType: z.string().min(1).max(200),
            validFor: z.object({ from: instant.optional(), to: instant.optional() }).strict().optional(),
            // A listed claim restricts its values; one with no allowed value is forbidden; unlisted ones are free.
            claims: z
              .array(
                z
                  .object({
                    name: z.string().min(1).max(200),
                    path: z.string().max(500).optional(),
                    allowedValues: z.array(z.unknown()).max(200),
                  })
                  .strict(),
              )
              .max(50)
              .optional(),
          })
          .strict(),
      )
      .max(50),
  })
  .strict();

/** The most issuers a list reads (100 pages of 100). */
const MAX_PAGES = 100;
const PAGE = 100;

/**
 * The issuers of a trusted issuers list (FIWARE TIL 0.8): listed by the management API's
 * `GET /issuer` (page numbers, from 0.8.1), or by the TIR read API where that is absent (0.8.0;
 * `page[after]` is a page index there too); shown, added, replaced and removed through `/issuer`.
 */
export function registerIssuerRoutes(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const base = "/api/trusted-issuers-lists/:id/issuers";
  const tags = ["trusted-issuers"];
  const errors = { 400: problemSchema, 404: problemSchema, 409: problemSchema, 502: problemSchema };
  const listParams = z.object({ id: z.string() });
  const itemParams = z.object({ id: z.string(), did: z.string().min(1).max(500) });

  const listOf = async (id: string): Promise<Component> => {
    const row = await records.find(trustedIssuersLists, id);
    if (!row) throw notFound(id);
    return componentOf("til", row);
  };
  const at = (issuer: string) => `/issuer/${encodeURIComponent(issuer)}`;
  const noIssuer = (list: Component, issuer: string) =>
    problem(404, "til.noIssuer", { did: issuer, name: list.name });
  const refusedIssuer = (list: Component, answer: Awaited<ReturnType<typeof call>>) =>
    answer.status === 400
      ? problem(400, "til.invalidIssuer", { name: list.name, reason: reasonOf(answer) })
      : refused(list, answer);

  async function dids(list: Component): Promise<string[]> {
    const found: string[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await call(list, "GET", `/issuer?pageSize=${PAGE}&page=${page}`);
      // 0.8.0 has no GET /issuer: its TIR API lists the same issuers.
      if (page === 0 && (answer.status === 404 || answer.status === 405)) return tirDids(list);
      const body = answer.body as { items?: unknown; total?: unknown } | null;
      if (answer.status !== 200 || !Array.isArray(body?.items)) throw refused(list, answer);
      found.push(...body.items.map(String));
      if (body.items.length < PAGE || found.length >= Number(body.total)) break;
    }
    return found;
  }
  async function tirDids(list: Component): Promise<string[]> {
    const found: string[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await call(list, "GET", `/v4/issuers?page%5Bsize%5D=${PAGE}&page%5Bafter%5D=${page}`);
      const body = answer.body as { items?: Array<{ did?: unknown }>; total?: unknown } | null;
      if (answer.status !== 200 || !Array.isArray(body?.items)) throw refused(list, answer);
      found.push(...body.items.map((i) => String(i.did)));
      if (body.items.length < PAGE || found.length >= Number(body.total)) break;
    }
    return found;
  }
  async function read(list: Component, issuer: string) {
    const answer = await call(list, "GET", at(issuer));
    if (answer.status === 404) throw noIssuer(list, issuer);
    if (answer.status !== 200) throw refused(list, answer);
    return answer.body as z.infer<typeof issuerSchema>;
  }

  api.get(
    base,
    {
      schema: {
        tags,
        summary: "The DIDs of the issuers a trusted issuers list holds, sorted",
        params: listParams,
        response: { 200: z.array(z.object({ did: z.string() })), ...errors },
      },
    },
    async (request) => {
      const list = await listOf(request.params.id);
      return [...new Set(await dids(list))].sort().map((d) => ({ did: d }));
    },
  );

  api.get(
    `${base}/:did`,
    {
      schema: {
        tags,
        summary: "One trusted issuer with its credentials",
        params: itemParams,
        response: { 200: issuerSchema.loose(), ...errors },
      },
    },
    async (request) => read(await listOf(request.params.id), request.params.did),
  );

  api.post(
    base,
    {
      schema: {
        tags,
        summary: "Add a trusted issuer to the list, and read it back",
        params: listParams,
        body: issuerSchema,
        response: { 201: issuerSchema.loose(), ...errors },
      },
    },
    async (request, reply) => {
      const list = await listOf(request.params.id);
      const answer = await call(list, "POST", "/issuer", request.body);
      if (answer.status === 409)
        throw problem(409, "til.issuerExists", { did: request.body.did, name: list.name });
      if (answer.status !== 201 && answer.status !== 200) throw refusedIssuer(list, answer);
      const issuer = await read(list, request.body.did);
      return reply
        .code(201)
        .header("location", `${request.url.split("?")[0]}/${encodeURIComponent(request.body.did)}`)
        .send(issuer);
    },
  );

  api.put(
    `${base}/:did`,
    {
      schema: {
        tags,
        summary: "Replace the credentials of a trusted issuer, and read it back",
        params: itemParams,
        body: issuerSchema,
        response: { 200: issuerSchema.loose(), ...errors },
      },
    },
    async (request) => {
      const { did: issuer } = request.params;
      // The TIL refuses it too ("Did does not match the issuer object."); said here on the field.
      if (request.body.did !== issuer) throw invalid([fieldError("did", "til.otherDid", { did: issuer })]);
      const list = await listOf(request.params.id);
      const answer = await call(list, "PUT", at(issuer), request.body);
      if (answer.status === 404) throw noIssuer(list, issuer);
      if (answer.status !== 200) throw refusedIssuer(list, answer);
      return read(list, issuer);
    },
  );

  api.delete(
    `${base}/:did`,
    {
      schema: {
        tags,
        summary: "Remove a trusted issuer from the list",
        params: itemParams,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      const list = await listOf(request.params.id);
      const answer = await call(list, "DELETE", at(request.params.did));
      if (answer.status === 404) throw noIssuer(list, request.params.did);
      if (answer.status !== 204 && answer.status !== 200) throw refused(list, answer);
      return reply.code(204).send();
    },
  );
}
