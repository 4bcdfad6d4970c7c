import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { brokerClients } from "@orrery/model";
import type { Database } from "../storage/database.ts";
import { brokerClientKeys, records } from "../storage/schema.ts";

/** What a broker client's key allows on the embedded broker. */
export interface BrokerClientGrant {
  /** The client's record id (urn:ngsi-ld:BrokerClient:...). */
  id: string;
  name: string;
  /** The tenants it may reach; "" is the default tenant (a request without NGSILD-Tenant). */
  tenants: string[];
  /** write implies read. */
  access: "read" | "write";
}

/** Every key starts so: a credential that does not is not looked up (a session token, a JWT). */
export const KEY_PREFIX = "obk_";
/** The prefix and 32 random bytes in base64url (43 characters). */
const KEY_LENGTH = KEY_PREFIX.length + 43;

/**
 * How long a process may answer a key from memory. A revocation, a new key, a change of scope or a
 * deletion made in this process applies at once (forget); one made by another API process sharing
 * the PostgreSQL database is seen here within this delay.
 */
export const BROKER_CLIENT_CACHE_MS = 5_000;
const CACHE_MAX = 10_000;

/** The stored form of a key: its SHA-256, base64url. The key itself is never stored. */
export const hashKey = (key: string) => createHash("sha256").update(key).digest("base64url");

/** A new key and its hash: the key goes once to the admin, the hash to broker_client_keys. */
export function issueKey(): { key: string; keyHash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { key, keyHash: hashKey(key) };
}

function grantOf(row: {
  id: string;
  name: string;
  data: Record<string, unknown>;
}): BrokerClientGrant | undefined {
  const { tenants, access, revoked } = row.data;
  if (revoked === true || (access !== "read" && access !== "write") || !Array.isArray(tenants))
    return undefined;
  return { id: row.id, name: row.name, tenants: tenants.filter((t) => typeof t === "string"), access };
}

/**
 * The broker clients' keys, as the policy enforcement point of /ngsi-ld/v1 asks about them: the
 * grant of a key, by the hash of what the request presented (an indexed equality), cached for a few
 * seconds. Unknown keys are never cached (a wrong key costs a query, a right one none while cached).
 */
export class BrokerClientKeys {
  private readonly cache = new Map<string, { grant: BrokerClientGrant; until: number }>();
  /** Counts forget(): a lookup that began before one does not cache what it read (it may be stale). */
  private generation = 0;
  private readonly byHash;

  constructor(
    private readonly db: Database,
    private readonly options: { cacheMs?: number } = {},
  ) {
    // Built once: the statement of every lookup (see Records' preparedStatements).
    this.byHash = db
      .select({ id: records.id, name: records.name, data: records.data })
      .from(brokerClientKeys)
      .innerJoin(records, eq(records.id, brokerClientKeys.clientId))
      .where(
        and(eq(brokerClientKeys.keyHash, sql.placeholder("keyHash")), eq(records.kind, brokerClients.kind)),
      )
      .prepare("broker_client_by_key_hash");
  }

  /** The grant of a key, or undefined for an unknown, replaced or revoked key (and for anything else). */
  async find(key: string): Promise<BrokerClientGrant | undefined> {
    if (!key.startsWith(KEY_PREFIX) || key.length !== KEY_LENGTH) return undefined;
    const keyHash = hashKey(key);
    const now = Date.now();
    const cached = this.cache.get(keyHash);
    if (cached && now < cached.until) return cached.grant;
    this.cache.delete(keyHash);
    const generation = this.generation;
    const [row] = await this.byHash.execute({ keyHash });
    const grant = row && grantOf(row);
    if (grant && generation === this.generation) {
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(keyHash, { grant, until: now + (this.options.cacheMs ?? BROKER_CLIENT_CACHE_MS) });
    }
    return grant;
  }

  /** Drops what this process holds of a client: called after its update, revocation, new key or deletion. */
  forget(clientId: string): void {
    this.generation++;
    for (const [hash, { grant }] of this.cache) if (grant.id === clientId) this.cache.delete(hash);
  }
}
