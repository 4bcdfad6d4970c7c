import { problem } from "../problems.ts";

/** What one user may hold of the live channel (LIVE_MAX_STREAMS_PER_USER, LIVE_MAX_CHANNELS_PER_USER). */
export interface LiveLimits {
  /** Open streams: Server-Sent Events responses, and long-poll mailboxes (kept a minute after a poll). */
  streamsPerUser: number;
  /** Distinct channels listened to (a workspace's type or entity, and the attributes watched): each is a broker subscription. */
  channelsPerUser: number;
}

/**
 * The live channel's holdings per user: a user cannot hold the server's connections or make it
 * keep broker subscriptions beyond the limits (429, the limit in the sentence). Counted in this
 * process, as its channels are.
 */
export class LiveQuotas {
  /** user → channel key → streams held on it. */
  private readonly users = new Map<string, Map<string, number>>();

  constructor(private readonly limits: LiveLimits) {}

  /** Holds one stream of `user` on `channel`; the returned function gives it back (once). */
  take(user: string, channel: string): () => void {
    const held = this.users.get(user) ?? new Map<string, number>();
    let streams = 0;
    for (const n of held.values()) streams += n;
    if (streams >= this.limits.streamsPerUser)
      throw problem(429, "live.tooManyStreams", { max: this.limits.streamsPerUser });
    if (!held.has(channel) && held.size >= this.limits.channelsPerUser)
      throw problem(429, "live.tooManyChannels", { max: this.limits.channelsPerUser });
    held.set(channel, (held.get(channel) ?? 0) + 1);
    this.users.set(user, held);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (held.get(channel) ?? 1) - 1;
      if (left > 0) held.set(channel, left);
      else held.delete(channel);
      if (held.size === 0 && this.users.get(user) === held) this.users.delete(user);
    };
  }
}
