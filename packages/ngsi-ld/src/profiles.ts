/**
 * What differs between brokers. Every value is taken from /work/shared/notes/ngsi-ld.md ("notes"
 * below: §1 = API surface, §2 = the Orion-LD / Scorpio / Stellio comparison table) or, where the
 * notes say nothing, from the spec's default with a comment saying so. A data space can override
 * single values after a capability probe (ClientOptions.profileOverrides).
 */
export interface BrokerProfile {
  name: "orion-ld" | "scorpio" | "stellio" | "orrery";
  /** Largest `limit` the broker accepts; a larger one is an error (notes §2 "Default / max limit"). */
  pageSizeCap: number;
  /** Whether several instances of one attribute (datasetId) are kept. */
  multiValued: boolean;
  /** The query parameter that marks a query as local, which lifts the "too broad" rule (notes §1.3). */
  localParameter: "local" | "localOnly";
  /** Where the temporal API lives by default: in the broker, or in a separate Mintaka service. */
  temporal: "native" | "mintaka";
  /** GET /types and /attributes with details (notes §1.7). */
  discovery: boolean;
  /** PATCH /entities/{id} (Merge Entity, 5.6.17); without it the client appends attributes instead. */
  mergePatch: boolean;
  /** PUT /entities/{id} (Replace Entity, 5.6.18); without it the client batch-upserts with options=replace. */
  putReplace: boolean;
  /** POST /entityOperations/merge (v1.7+). */
  batchMerge: boolean;
  /** GET /temporal/entities needs timerel and timeAt; the client then sends timerel=before&timeAt=<now>. */
  temporalQueryNeedsTimerel: boolean;
  /** Largest number of entities one batch operation accepts; the client chunks above it. */
  batchMax: number;
  /**
   * How all registrations are listed. A GET /csourceRegistrations without a condition is a 400 in
   * the ETSI test suite (037_02): the embedded broker lifts it with local=true ("local"), Scorpio
   * (RegistryController.java, 2024-10: none of id, type, attrs, geometry, q is BadRequestData, no
   * local flag) only answers by condition, so it is asked for the types it holds ("byTypes", which
   * misses registrations of other types); Orion-LD and Stellio list all without one ("plain").
   */
  registrationListing: "plain" | "local" | "byTypes";
}

export const profiles: Record<BrokerProfile["name"], BrokerProfile> = {
  "orion-ld": {
    name: "orion-ld",
    // notes §2: default 20, max 1000 (mhdConnectionInit.cpp; over 1000 is a 400, issue #1607).
    pageSizeCap: 1000,
    // notes/original-app.md §3.10 (property form): multiValued is enabled only for scorpio and stellio.
    multiValued: false,
    // notes §1.3 and §2 "Unrestricted query flag": local=true.
    localParameter: "local",
    // notes §2 "Temporal reads": ≤1.7 answers 501 and points to Mintaka. Native temporal GET landed
    // in 2026-03 (PR #1929); the client uses the broker's own /temporal whenever no Mintaka URL is set.
    temporal: "mintaka",
    discovery: true,
    // notes §1.1 "Merge entity": Orion-LD routes it (orionldPatchEntity2).
    mergePatch: true,
    // notes §1.1 "Replace entity (5.6.18, v1.7+)": no broker is listed as lacking it.
    putReplace: true,
    // notes §1.1 "Batch merge" and §2: absent from Orion-LD 1.7.0's route table.
    batchMerge: false,
    temporalQueryNeedsTimerel: false,
    // notes §2 "Batch / size limits": only a 1 MiB payload limit; 1000 keeps a batch small (§2 closing advice).
    batchMax: 1000,
    registrationListing: "plain",
  },
  scorpio: {
    name: "scorpio",
    // notes §2: default 50, max 1000, over → 403 TooManyResults (application.properties).
    pageSizeCap: 1000,
    multiValued: true,
    // notes §1.3 and §2: Scorpio names the flag localOnly (QueryController.java).
    localParameter: "localOnly",
    // notes §2 "Temporal reads": native (HistoryController.java).
    temporal: "native",
    discovery: true,
    mergePatch: true,
    putReplace: true,
    // notes §2 "entityOperations/merge": yes (EntityBatchController.java).
    batchMerge: true,
    temporalQueryNeedsTimerel: false,
    // notes §2 "Batch / size limits": 1000 entities per batch operation.
    batchMax: 1000,
    registrationListing: "byTypes",
  },
  stellio: {
    name: "stellio",
    // notes §2: default 30, max 100, over → 403 TooManyResults (shared.properties).
    pageSizeCap: 100,
    multiValued: true,
    // notes §2: local=true on /entities (and 501 for local on /types, so only entity queries get it).
    localParameter: "local",
    temporal: "native",
    discovery: true,
    mergePatch: true,
    putReplace: true,
    // notes §2 "entityOperations/merge": yes (EntityOperationHandler.kt).
    batchMerge: true,
    // notes §2 "Temporal reads": on GET /temporal/entities timerel+timeAt are mandatory (TemporalQueryUtils.kt).
    temporalQueryNeedsTimerel: true,
    // notes §2: 2 MiB body; 1000 entities as for the others.
    batchMax: 1000,
    registrationListing: "plain",
  },
  orrery: {
    name: "orrery",
    // packages/broker/src/broker.ts: pageSizeCap default 1000, over → 403 TooManyResults.
    pageSizeCap: 1000,
    multiValued: true,
    localParameter: "local",
    temporal: "native",
    discovery: true,
    mergePatch: true,
    putReplace: true,
    // packages/broker/src/batch.ts has create/upsert/update/delete only.
    batchMerge: false,
    temporalQueryNeedsTimerel: false,
    batchMax: 1000,
    registrationListing: "local",
  },
};

export function profileOf(implementationName: string): BrokerProfile {
  return profiles[implementationName as BrokerProfile["name"]] ?? profiles["orion-ld"];
}
