import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { KindDefinition } from "@orrery/model";
import { readSchema, writeSchema } from "@orrery/model/schema";
import { fieldError, invalid, problemSchema as problem } from "../problems.ts";
import { etagOf, type Alongside, type DependentsCheck, type Records } from "./records.ts";
import { servedPath } from "../auth/guard.ts";
import { hasPersonalFields, withoutPersonal } from "./personal.ts";
import { registerDeleteCheck } from "./delete-check.ts";

const params = z.object({ id: z.string() });
const workspaceParams = z.object({ workspaceId: z.string(), id: z.string() });

type Data = Record<string, unknown>;
interface At {
  workspaceId?: string;
  id?: string;
  /** The request, for rules that ask the workspace's broker (with the caller's gateway token). */
  request?: FastifyRequest;
}

/** Server rules of a kind that need other records (see data-model/rules.ts). */
export interface KindHooks {
  /** Completes or refuses a validated payload. */
  prepare?(input: Data, at: At): Promise<Data>;
  /** After a create, update or delete. */
  changed?(at: At): Promise<void>;
  /**
   * The records an update would leave invalid (refused with a 409 naming them), checked in the
   * update's transaction, whatever route makes it; the rules may also carry along there what
   * dependents copy from the record.
   */
  dependents?: DependentsCheck;
  /**
   * What a create makes besides the record, in its transaction, and shows once in its 201 answer
   * only (a broker client's key: no read returns it again). `shownOnceSchema` documents it.
   */
  createdWith?(): { alongside: Alongside; shownOnce: Data };
  shownOnceSchema?: z.ZodRawShape;
}

/** Registers list, create, show, update and delete for one kind, from its definition (and its hooks). */
export function registerKindRoutes(
  app: FastifyInstance,
  kind: KindDefinition,
  records: Records,
  hooks: KindHooks = {},
): void {
  const prepare = (input: unknown, at: At) => {
    // `hasWorkspace` as read is accepted back when it is the path's workspace; the path decides.
    const { hasWorkspace, ...data } = input as Data;
    if (hasWorkspace !== undefined && hasWorkspace !== at.workspaceId)
      throw invalid([
        fieldError("hasWorkspace", "field.otherWorkspace", { workspace: at.workspaceId ?? "" }),
      ]);
    return hooks.prepare ? hooks.prepare(data, at) : data;
  };
  const changed = (at: At) => hooks.changed?.(at);
  if (hooks.dependents) records.watchDependents(kind, hooks.dependents);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const workspaced = kind.scope === "workspace";
  const collection = workspaced ? `/api/workspace/:workspaceId/${kind.kind}` : `/api/${kind.kind}`;
  const item = `${collection}/:id`;
  const read = readSchema(kind);
  const errors = { 400: problem, 401: problem, 403: problem, 404: problem };
  const tags = [kind.kind];
  const ws = (p: unknown) => (workspaced ? (p as { workspaceId: string }).workspaceId : undefined);
  const idParams = workspaced ? workspaceParams : params;
  const personal = hasPersonalFields(kind);
  // Everything under /api/workspace/{workspaceId}/... needs that workspace to exist (404 otherwise).
  const pre = workspaced
    ? {
        preHandler: async (request: { params: unknown }) => {
          await records.requireWorkspace((request.params as { workspaceId: string }).workspaceId);
        },
      }
    : {};

  // A list may be narrowed by the fields that name a choice (`?ngsiLdType=Relationship`,
  // `?hasType={id}`): the chart of a large model reads its relationships, not every property.
  const filters = kind.fields.filter((f) => ["enum", "reference", "boolean"].includes(f.input) && !f.secret);
  api.get(
    collection,
    {
      ...pre,
      schema: {
        tags,
        summary: `List ${kind.kind}, sorted by name${filters.length ? ", narrowed by the fields given" : ""}`,
        querystring: z.object(
          Object.fromEntries(filters.map((f) => [f.name, z.string().max(1000).optional()])),
        ),
        response: { 200: z.array(read), ...errors },
      },
    },
    // Ready JSON bytes: sent as they are, not serialized.
    async (request, reply) => {
      const where = Object.entries(request.query as Record<string, string | undefined>).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      );
      const json = await records.listJson(kind, ws(request.params), where);
      if (!personal) return reply.type("application/json").send(json as never);
      return reply.send(
        withoutPersonal(kind, request, servedPath(request)!, JSON.parse(json.toString())) as never,
      );
    },
  );

  api.post(
    collection,
    {
      ...pre,
      schema: {
        tags,
        summary: `Create one of ${kind.kind}`,
        body: writeSchema(kind, "create"),
        response: { 201: hooks.shownOnceSchema ? read.extend(hooks.shownOnceSchema) : read, ...errors },
      },
    },
    async (request, reply) => {
      const workspaceId = ws(request.params);
      const body = await prepare(request.body, { workspaceId, request });
      const extra = hooks.createdWith?.();
      const { item: created, version } = await records
        .as(request.session)
        .create(kind, body, workspaceId, extra?.alongside);
      await changed({ workspaceId, id: created.id });
      return reply
        .code(201)
        .header("location", `${request.url.split("?")[0]}/${created.id}`)
        .header("etag", etagOf(version))
        .send(extra ? { ...created, ...extra.shownOnce } : created);
    },
  );

  api.get(
    item,
    {
      ...pre,
      schema: {
        tags,
        summary: `Show one of ${kind.kind}`,
        params: idParams,
        response: { 200: read, ...errors },
      },
    },
    async (request, reply) => {
      const { item: found, version } = await records.get(kind, request.params.id, ws(request.params));
      const [shown] = personal
        ? withoutPersonal(kind, request, servedPath(request)!.replace(/\/[^/]*$/, ""), [found])
        : [found];
      return reply.header("etag", etagOf(version)).send(shown);
    },
  );

  api.put(
    item,
    {
      ...pre,
      schema: {
        tags,
        summary: `Replace one of ${kind.kind}; send If-Match with the ETag you read to avoid overwriting someone else's change`,
        params: idParams,
        body: writeSchema(kind, "update"),
        response: { 200: read, 409: problem, 412: problem, ...errors },
      },
    },
    async (request, reply) => {
      const at = { workspaceId: ws(request.params), id: request.params.id };
      const body = await prepare(request.body, { ...at, request });
      const { item: updated, version } = await records.as(request.session).update(kind, at.id, body, {
        ifMatch: request.headers["if-match"],
        workspaceId: at.workspaceId,
      });
      await changed(at);
      return reply.header("etag", etagOf(version)).send(updated);
    },
  );

  api.delete(
    item,
    {
      ...pre,
      schema: {
        tags,
        summary: `Delete one of ${kind.kind}; refused with 409 while other records refer to it`,
        params: idParams,
        response: { 204: z.void(), 409: problem, ...errors },
      },
    },
    async (request, reply) => {
      await records.as(request.session).delete(kind, request.params.id, ws(request.params));
      await changed({ workspaceId: ws(request.params), id: request.params.id });
      return reply.code(204).send();
    },
  );

  registerDeleteCheck(app, kind, records, item, idParams);
}
