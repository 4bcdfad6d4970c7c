import { createHash } from "node:crypto";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { LocalDelivery } from "@orrery/broker";
import type { Entity, NgsiLdClient } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { viaBroker } from "../context-data/broker-access.ts";
import { workspaceData } from "../context-data/workspace-data.ts";
import { problem } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import type { Sessions } from "../auth/sessions.ts";
import { callerOf, channelKey, LiveChannels, NOTIFY_PATH, PROOF_HEADER, type Watch } from "./channels.ts";
import { usesOwnBroker } from "./own-broker.ts";
import { LiveQuotas } from "./quotas.ts";
import { eventStream, Mailboxes, wantsEventStream } from "./streams.ts";

/** What one live request observes: a watch of the workspace's broker, and what a listener receives of each notified entity. */
export interface Observation {
  watch: Omit<Watch, "caller">;
  client: NgsiLdClient;
  /** Distinguishes the observations of one watch (a WoT property, an event) in a caller's long-poll mailbox. */
  about: string;
  /** The value sent for a notified entity; undefined sends nothing. */
  valueOf(entity: Entity): unknown;
  /**
   * The value the caller starts from, when only changes of value count: a broker notifies every
   * update of a watched attribute, also one that writes the same value again (a replaced entity).
   */
  since?: { value: unknown };
  /** Whether a changed value is sent (an event's capacity). */
  keep?(value: unknown): boolean;
}

export interface Live {
  channels: LiveChannels;
  /** The embedded broker's delivery to the channels inside this process (its `notifications.local`). */
  localDelivery: LocalDelivery;
  /** Answers a live request: Server-Sent Events when asked, else a long poll (its HEAD handshake already listens). */
  serve(request: FastifyRequest, reply: FastifyReply, observation: Observation): Promise<unknown>;
}

const digest = (value: string) => createHash("sha256").update(value).digest("base64url");

/**
 * The live channel's routes: the brokers' notification endpoint (public: its address is a secret,
 * 256 random bits, the notification must name the channel's subscription and carry the channel's
 * proof header, and it takes nothing for channels of this process's embedded broker, which
 * delivers inside the process), and the console's stream of a workspace's entity changes. The WoT
 * observations use `serve`.
 */
export function registerLiveRoutes(
  app: FastifyInstance,
  records: Records,
  config: Config,
  sessions: Pick<Sessions, "onRevoke">,
): Live {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const channels = new LiveChannels(config.liveNotifyUrl, app.log, {
    lingerMs: 30_000,
    lifetimeMs: 10 * 60_000,
    ownBroker: (workspaceId) => usesOwnBroker(records, workspaceId),
  });
  const mailboxes = new Mailboxes();
  const quotas = new LiveQuotas(config.live);
  let deleteSubscriptions = async () => {};
  // A connection that never sent a byte holds no request, yet the server waits for its header
  // time-out (60 s) before it closes: undici's pools leave such connections to this process's
  // own embedded broker when calls overlap (the channels' renewals and sweeps), and they go at close.
  const connections = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  // Streams end before the server closes (it waits for open requests); the subscriptions are
  // deleted after, when the brokers answer soon, else they expire.
  app.addHook("preClose", async () => {
    deleteSubscriptions = channels.endAll();
    mailboxes.clear();
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
  });
  app.addHook("onClose", async () => {
    await Promise.race([deleteSubscriptions(), sleep(2_000)]);
  });

  api.post(
    `${NOTIFY_PATH}:secret`,
    {
      config: { access: "public" },
      schema: {
        hide: true,
        params: z.object({ secret: z.string() }),
        body: z.object({ subscriptionId: z.unknown().optional(), data: z.unknown().optional() }).loose(),
      },
    },
    async (request, reply) => {
      const proof = request.headers[PROOF_HEADER.toLowerCase()];
      if (
        !channels.notify(request.params.secret, request.body, typeof proof === "string" ? proof : undefined)
      )
        throw problem(404, "live.unknownChannel");
      return reply.code(204).send();
    },
  );

  async function serve(request: FastifyRequest, reply: FastifyReply, observation: Observation) {
    const gateway = request.headers["gateway-authorization"];
    const watch: Watch = {
      ...observation.watch,
      caller: callerOf(typeof gateway === "string" && gateway ? gateway : undefined),
    };
    const listen = (send: (value: unknown) => void, end: () => void) => {
      let last = observation.since && JSON.stringify(observation.since.value);
      return viaBroker(() =>
        channels.listen(watch, observation.client, {
          change(entity) {
            const value = observation.valueOf(entity);
            if (value === undefined) return;
            if (observation.since) {
              const text = JSON.stringify(value);
              if (text === last) return;
              last = text;
            }
            if (observation.keep?.(value) ?? true) send(value);
          },
          end,
        }),
      );
    };
    // A user's streams and channels are counted by who they are, not by token (a user may hold many).
    const user = request.session
      ? JSON.stringify([request.session.provider, request.session.subject])
      : digest(request.bearer ?? "");
    /** Holds a stream while `listen` subscribes, and gives it back with the returned unlisten (or the failure). */
    const held = async (run: () => Promise<() => void>) => {
      const release = quotas.take(user, channelKey(watch));
      try {
        const unlisten = await run();
        return () => {
          unlisten();
          release();
        };
      } catch (err) {
        release();
        throw err;
      }
    };
    if (request.method !== "HEAD" && wantsEventStream(request)) {
      // What comes between the subscription and the stream's opening is sent first.
      const early: unknown[] = [];
      let ended = false;
      let send: (value: unknown) => void = (value) => void early.push(value);
      let end = () => void (ended = true);
      const unlisten = await held(() =>
        listen(
          (value) => send(value),
          () => end(),
        ),
      );
      // A sign-out closes the streams of its session, and those of the stream tokens it issued.
      let forget = () => {};
      const stream = eventStream(reply, () => {
        forget();
        unlisten();
      });
      if (request.session) forget = sessions.onRevoke(request.session.tokenHash, stream.end);
      ({ send, end } = stream);
      for (const value of early) send(value);
      if (ended) end();
      return reply;
    }
    const key = JSON.stringify([
      digest(request.bearer ?? ""),
      watch.workspaceId,
      watch.caller ?? "",
      observation.about,
      watch.entityId ?? watch.type,
    ]);
    await mailboxes.open(key, (sink) => held(() => listen(sink.push, sink.end)));
    if (request.method === "HEAD") return reply.code(200).send();
    const taken = await mailboxes.take(key, reply);
    if ("ended" in taken) throw problem(503, "live.channelEnded");
    // The client left: nobody reads this answer, but the request ends.
    if ("gone" in taken) return reply.code(204).send();
    return reply.type("application/json").send(JSON.stringify(taken.value));
  }

  api.get(
    "/api/workspace/:workspaceId/live/entities",
    {
      schema: {
        tags: ["entities"],
        summary: "The changes of entities, as they happen in the broker",
        description:
          "Server-Sent Events (Accept: text/event-stream): one message per changed entity, its data the " +
          "entity as the broker notified it (normalized). Without that Accept header, a long poll: the next changed entity.",
        params: z.object({ workspaceId: z.string() }),
        querystring: z.object({
          type: z.string().min(1).max(2_000),
          id: z.string().min(1).max(2_000).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const { type } = request.query;
      const data = await workspaceData(records, config, workspaceId, request);
      // Before any broker subscription: a made-up type would cost one for nothing.
      if (!(await data.dataModel()).types.some((t) => t.name === type))
        throw problem(404, "live.unknownType", { type });
      const client = await viaBroker(() => data.broker());
      return serve(request, reply, {
        watch: { workspaceId, type, entityId: request.query.id },
        client,
        about: "entities",
        valueOf: (entity) => entity,
      });
    },
  );

  return {
    channels,
    serve,
    localDelivery: {
      deliver: (endpoint, notification, receiverInfo) =>
        channels.deliverLocal(endpoint, notification, receiverInfo),
    },
  };
}
