import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { problem, problemSchema } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import {
  deletePolicy,
  papOf,
  policyPath,
  readPolicy,
  shown,
  unknownService,
  writePolicy,
  type Policy,
} from "./pap.ts";
import { call, reasonOf, refused } from "./peer.ts";

/** A policy as Orrery shows it: the PAP's, with its ODRL parsed (the PAP keeps it as a JSON string). */
const policySchema = z.object({
  id: z.string(),
  uid: z.string(),
  odrl: z.record(z.string(), z.unknown()),
  rego: z.string(),
});

const odrlBody = z.object({ odrl: z.record(z.string(), z.unknown()) }).strict();
const params = z.object({ workspaceId: z.string(), id: z.string().min(1).max(200) });

/** The most policies a list reads from a PAP (100 pages of 100): it has no total to say how many there are. */
const MAX_PAGES = 100;
const PAGE = 100;

/**
 * ODRL policies of a workspace, kept in the policy administration point of its service (FDSC
 * mode): those of the PAP service the Orrery service names, else the PAP's global ones. Orrery
 * keeps no copy: the PAP is where OPA reads them from, so what it holds is what is shown.
 */
export function registerPolicyRoutes(app: FastifyInstance, records: Records): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const base = "/api/workspace/:workspaceId/odrl-policies";
  const tags = ["odrl-policies"];
  const errors = { 400: problemSchema, 404: problemSchema, 409: problemSchema, 502: problemSchema };

  api.get(
    base,
    {
      schema: {
        tags,
        summary: "List the ODRL policies of the workspace's policy administration point",
        params: z.object({ workspaceId: z.string() }),
        response: { 200: z.array(policySchema), ...errors },
      },
    },
    async (request) => {
      const at = await papOf(records, request.params.workspaceId);
      const policies: Policy[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await call(at.pap, "GET", `${at.prefix}?page=${page}&pageSize=${PAGE}`);
        if (at.sid && unknownService(answer)) return [];
        if (answer.status !== 200 || !Array.isArray(answer.body)) throw refused(at.pap, answer);
        policies.push(...answer.body.map(shown));
        if (answer.body.length < PAGE) break;
      }
      return policies.sort((a, b) => a.uid.localeCompare(b.uid));
    },
  );

  api.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: "Show one ODRL policy with the Rego the PAP generated",
        params,
        response: { 200: policySchema, ...errors },
      },
    },
    async (request) => {
      const at = await papOf(records, request.params.workspaceId);
      const answer = await call(at.pap, "GET", policyPath(at, request.params.id));
      if (answer.status === 404)
        throw problem(404, "pap.noPolicy", { id: request.params.id, name: at.pap.name });
      if (answer.status !== 200) throw refused(at.pap, answer);
      return shown(answer.body);
    },
  );

  api.post(
    base,
    {
      schema: {
        tags,
        summary: "Write a new ODRL policy to the PAP (which answers its Rego) and read it back",
        params: z.object({ workspaceId: z.string() }),
        body: odrlBody,
        response: { 201: policySchema, ...errors },
      },
    },
    async (request, reply) => {
      const at = await papOf(records, request.params.workspaceId);
      const answer = await writePolicy(at, "POST", at.prefix, request.body.odrl);
      // The PAP's Location is the bare id, not a URL.
      const id = (answer.location ?? "").split("/").at(-1);
      if (!id) throw refused(at.pap, answer);
      const policy = await readPolicy(at.pap, policyPath(at, id));
      return reply
        .code(201)
        .header("location", `${request.url.split("?")[0]}/${encodeURIComponent(policy.id)}`)
        .send(policy);
    },
  );

  api.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: "Replace an ODRL policy in the PAP (create it under this id if absent) and read it back",
        params,
        body: odrlBody,
        response: { 200: policySchema, ...errors },
      },
    },
    async (request) => {
      const at = await papOf(records, request.params.workspaceId);
      const path = policyPath(at, request.params.id);
      await writePolicy(at, "PUT", path, request.body.odrl);
      return readPolicy(at.pap, path);
    },
  );

  api.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: "Remove an ODRL policy from the PAP",
        params,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      const at = await papOf(records, request.params.workspaceId);
      await deletePolicy(at, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    `${base}/validate`,
    {
      schema: {
        tags,
        summary:
          "Ask the PAP's /validate whether a request would be allowed by an ODRL policy (the PAP's mapper checks the policy first)",
        params: z.object({ workspaceId: z.string() }),
        body: z
          .object({
            odrl: z.record(z.string(), z.unknown()),
            request: z
              .object({
                method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
                path: z.string().min(1).max(2000).startsWith("/"),
                credentialType: z.string().max(200).optional(),
                roles: z.array(z.string().max(200)).max(20).optional(),
              })
              .strict(),
          })
          .strict(),
        response: {
          200: z.object({ allow: z.boolean(), explanation: z.array(z.unknown()).optional() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { pap } = await papOf(records, request.params.workspaceId);
      if (pap.data.validation !== true) throw problem(400, "pap.noValidation", { name: pap.name });
      const { odrl, request: asked } = request.body;
      const answer = await call(pap, "POST", "/validate", {
        policy: odrl,
        testRequest: {
          method: asked.method,
          host: "orrery.invalid",
          path: asked.path,
          protocol: "https",
          headers: { authorization: `Bearer ${testToken(asked, String(pap.data.organizationDid))}` },
          body: {},
        },
      });
      if (answer.status === 400)
        throw problem(400, "pap.invalidPolicy", { name: pap.name, reason: reasonOf(answer) });
      const result = answer.body as { allow?: unknown; explanation?: unknown } | null;
      if (answer.status !== 200 || typeof result?.allow !== "boolean") throw refused(pap, answer);
      return {
        allow: result.allow,
        ...(Array.isArray(result.explanation) ? { explanation: result.explanation } : {}),
      };
    },
  );
}

/**
 * The bearer token of a test request: the JWT a verifier would issue with the credential embedded
 * (`jwtInclusion`), unsigned since OPA's Rego decodes it without checking (the gateway did). Its
 * roles are for the organisation the PAP is configured with, as `vc:role` reads them.
 */
function testToken(asked: { credentialType?: string; roles?: string[] }, organizationDid: string): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const credential = {
    type: ["VerifiableCredential", ...(asked.credentialType ? [asked.credentialType] : [])],
    credentialSubject: { roles: [{ target: organizationDid, names: asked.roles ?? [] }] },
  };
  return `${part({ alg: "none", typ: "JWT" })}.${part({ verifiableCredential: credential })}.`;
}
