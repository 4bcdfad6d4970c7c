import { lt } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { enforcementDecisions } from "../metrics/registry.ts";
import type { Database } from "../storage/database.ts";
import { dataAccessDecisions } from "../storage/schema.ts";

/** Who asked: nobody (no or an unknown credential), a console user, a broker client, a data-space consumer. */
export const holderKinds = ["anonymous", "user", "client", "ishare-user", "ishare-party", "fdsc"] as const;
export type HolderKind = (typeof holderKinds)[number];

/** Why a request was let through or refused (the console and the API's catalogues say each in words). */
export const decisionReasons = [
  "permit",
  "admin",
  "noToken",
  "badCredential",
  "unknownToken",
  "expired",
  "forbidden",
  "readOnly",
  "noWorkspace",
  "clientScope",
  "clientReadOnly",
  "privateEndpoint",
  "noRole",
  "registryDeny",
  "registryUnreachable",
  "policyDeny",
  "badSignature",
  "untrustedChain",
] as const;
export type DecisionReason = (typeof decisionReasons)[number];

export interface Decision {
  holder: string;
  holderKind: HolderKind;
  party?: string;
  clientId?: string;
  roles?: readonly string[];
  method: string;
  tenant: string;
  entityType?: string;
  entityId?: string;
  /** The path served, under /ngsi-ld/v1. */
  path: string;
  permit: boolean;
  reason: DecisionReason;
  detail?: string;
}

type Row = typeof dataAccessDecisions.$inferInsert;

/** Stored texts have bounds: a caller chooses the path and the ids it sends. */
const cut = (value: string | undefined, max: number) => (value ?? "").slice(0, max);

/** Distinct paths kept per second for callers without a valid credential; beyond, their route stands for them. */
const STRANGER_PATHS = 200;
const FLUSH_MS = 1_000;
const FLUSH_AT = 500;
const HOUR = 3_600_000;

/**
 * The log of the PEP's decisions, written in the background: the decisions of one second that are
 * alike (same holder, method, tenant, target, outcome and path) become one row with a count, so that
 * the log costs a request nothing on its way and a flood of requests a bounded number of rows.
 * Kept as long as the audit trail (AUDIT_RETENTION_DAYS).
 */
export class DecisionLog {
  private pending = new Map<string, Row>();
  private strangers = 0;
  private readonly flushTimer: NodeJS.Timeout;
  private readonly pruneTimer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly retentionDays: number,
  ) {
    this.flushTimer = setInterval(() => void this.flush(), FLUSH_MS);
    this.flushTimer.unref();
    this.pruneTimer = setInterval(() => void this.prune(), HOUR);
    this.pruneTimer.unref();
  }

  /** Adds a decision; `route` (the route's pattern) stands for the path of strangers beyond the bound. */
  record(decision: Decision, route: string): void {
    enforcementDecisions.inc({
      holder: decision.holderKind,
      decision: decision.permit ? "permit" : "deny",
      reason: decision.reason,
    });
    let path = cut(decision.path, 500);
    if (decision.holderKind === "anonymous" && this.strangers >= STRANGER_PATHS) path = cut(route, 500);
    const row: Row = {
      at: new Date(),
      lastAt: new Date(),
      holder: cut(decision.holder, 200),
      holderKind: decision.holderKind,
      party: cut(decision.party, 200),
      clientId: cut(decision.clientId, 200),
      roles: decision.roles?.length ? decision.roles.slice(0, 20).map((r) => cut(r, 100)) : null,
      method: cut(decision.method, 10),
      tenant: cut(decision.tenant, 100),
      entityType: cut(decision.entityType, 200),
      entityId: cut(decision.entityId, 300),
      path,
      permit: decision.permit,
      reason: decision.reason,
      detail: cut(decision.detail, 500),
    };
    const key = JSON.stringify([
      row.holder,
      row.holderKind,
      row.party,
      row.clientId,
      row.roles,
      row.method,
      row.tenant,
      row.entityType,
      row.entityId,
      row.path,
      row.permit,
      row.reason,
      row.detail,
    ]);
    const same = this.pending.get(key);
    if (same) {
      same.count = (same.count ?? 1) + 1;
      same.lastAt = row.lastAt;
      return;
    }
    if (decision.holderKind === "anonymous") this.strangers++;
    this.pending.set(key, { ...row, count: 1 });
    if (this.pending.size >= FLUSH_AT) void this.flush();
  }

  /** Writes what is pending; resolves when every decision recorded before the call is stored. */
  flush(): Promise<void> {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    this.strangers = 0;
    this.writing = this.writing.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.db.insert(dataAccessDecisions).values(rows);
      } catch (err) {
        // The log is the operator's view, not the decision: a failure to write it is logged, never thrown.
        this.log.error(
          { err: (err as Error).message, rows: rows.length },
          "data access decisions not written",
        );
      }
    });
    return this.writing;
  }

  async prune(): Promise<void> {
    const before = new Date(Date.now() - this.retentionDays * 24 * HOUR);
    try {
      await this.db.delete(dataAccessDecisions).where(lt(dataAccessDecisions.at, before));
    } catch (err) {
      this.log.error({ err: (err as Error).message }, "data access retention failed");
    }
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.pruneTimer);
    await this.flush();
  }
}
