import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { brokerClients } from "@orrery/model";
import { readSchema } from "@orrery/model/schema";
import { issueKey, type BrokerClientKeys } from "../pep/broker-clients.ts";
import { problem, problemSchema } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import { etagOf, type Records, type Row, type Tx } from "../resources/records.ts";
import { brokerClientKeys } from "../storage/schema.ts";

/**
 * Broker clients: machines that call the embedded broker with a key of their own (issue 35). The
 * kind's CRUD routes are the generic ones; here are what is its own: the key made at creation and
 * shown in that answer only, "New key" and "Revoke". A key is kept only as its hash, in
 * broker_client_keys; the trail says that it changed, never what it is.
 */

const now = () => Math.floor(Date.now() / 1000);
/** What the trail says of a key: that it was set or changed, as of any secret. */
const keyChanged = { field: "key", secret: true } as const;

const storeKey = (tx: Tx, clientId: string, keyHash: string) =>
  tx
    .insert(brokerClientKeys)
    .values({ clientId, keyHash })
    .onConflictDoUpdate({
      target: brokerClientKeys.clientId,
      set: { keyHash, createdAt: new Date() },
    });

/** A revoked client stays revoked: neither a new key nor a second revocation. */
function refuseRevoked(client: Row) {
  if (client.data.revoked === true) throw problem(409, "brokerClients.revoked", { name: client.name });
}

/**
 * The kind's hooks: a create starts active with a key issued now; any change or deletion makes this
 * process forget what it cached of the client, so that the new scope applies at once.
 */
export function brokerClientHooks(keys: BrokerClientKeys): Record<string, KindHooks> {
  return {
    [brokerClients.kind]: {
      async prepare(input, { id }) {
        return id ? input : { ...input, keyIssuedAt: now(), revoked: false };
      },
      async changed({ id }) {
        if (id) keys.forget(id);
      },
      createdWith() {
        const { key, keyHash } = issueKey();
        return {
          alongside: {
            write: (tx, id) => storeKey(tx, id, keyHash).then(() => undefined),
            changes: [keyChanged],
          },
          shownOnce: { key },
        };
      },
      shownOnceSchema: { key: z.string().describe("The client's key: shown in this answer only") },
    },
  };
}

export function registerBrokerClientRoutes(app: FastifyInstance, records: Records, keys: BrokerClientKeys) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const read = readSchema(brokerClients);
  const errors = {
    401: problemSchema,
    403: problemSchema,
    404: problemSchema,
    409: problemSchema,
    412: problemSchema,
  };
  const params = z.object({ id: z.string() });

  api.post(
    "/api/broker-clients/:id/key",
    {
      schema: {
        tags: [brokerClients.kind],
        summary:
          "Replace the client's key: the old one stops working at once, the new one is in this answer only; send If-Match with the ETag you read",
        params,
        response: { 200: read.extend({ key: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      let key = "";
      const { item, version } = await records
        .as(request.session)
        .act(brokerClients, id, { ifMatch: request.headers["if-match"] }, async (client, tx) => {
          refuseRevoked(client);
          const issued = issueKey();
          key = issued.key;
          await storeKey(tx, id, issued.keyHash);
          return { patch: { keyIssuedAt: now() }, changes: [keyChanged] };
        });
      keys.forget(id);
      return reply.header("etag", etagOf(version)).send({ ...item, key });
    },
  );

  api.post(
    "/api/broker-clients/:id/revoke",
    {
      schema: {
        tags: [brokerClients.kind],
        summary:
          "Revoke the client: its key stops working at once and no other is given; the record stays. Send If-Match with the ETag you read",
        params,
        response: { 200: read, ...errors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { item, version } = await records
        .as(request.session)
        .act(brokerClients, id, { ifMatch: request.headers["if-match"] }, async (client, tx) => {
          refuseRevoked(client);
          await tx.delete(brokerClientKeys).where(eq(brokerClientKeys.clientId, id));
          return { patch: { revoked: true, revokedAt: now() } };
        });
      keys.forget(id);
      return reply.header("etag", etagOf(version)).send(item);
    },
  );
}
