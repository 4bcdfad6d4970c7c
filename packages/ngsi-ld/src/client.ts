import { performance } from "node:perf_hooks";
import { Agent, fetch as undiciFetch } from "undici";
import { profileOf, type BrokerProfile } from "./profiles.ts";

/** An RFC 7807 problem details body as NGSI-LD brokers send it (notes/ngsi-ld.md §1.1). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  detail?: string;
  status?: number;
  [k: string]: unknown;
}

/** What a successful answer had to hold for the call to use it. */
export type Expected =
  | "entity"
  | "entities"
  | "types"
  | "attributes"
  | "subscription"
  | "subscriptions"
  | "registration"
  | "registrations"
  | "ids"
  | "batchResult"
  | "updateResult"
  | "nothing";

/** What the broker sent instead. */
export type Found = "empty" | "null" | "notJson" | "otherJson";

/** Why a call failed on our side of the wire, for callers that say it in their own words. */
export type Failure =
  | { kind: "timeout" }
  /** `code`: node's code of the cause (ECONNREFUSED, ERR_SSL_WRONG_VERSION_NUMBER...), for callers that explain it. */
  | { kind: "unreachable"; cause: string; code?: string }
  | { kind: "unusable"; expected: Expected; found: Found; answered: number }
  | { kind: "unwritable"; cause: string };

/** A broker's failure, carrying its problem details (or the reason it could not be reached or used). */
export class NgsiLdError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemDetails,
    readonly broker: string,
    readonly failure?: Failure,
  ) {
    super(`${broker}: ${problem.title ?? "error"}${problem.detail ? ` (${problem.detail})` : ""}`);
  }
}

const isRecord = (b: unknown): b is Record<string, unknown> =>
  typeof b === "object" && b !== null && !Array.isArray(b);
const isEntity = (b: unknown): boolean =>
  isRecord(b) &&
  typeof b.id === "string" &&
  (typeof b.type === "string" || (Array.isArray(b.type) && b.type.every((t) => typeof t === "string")));
const listOf = (ok: (item: unknown) => boolean) => (b: unknown) => Array.isArray(b) && b.every(ok);
const isNamedList = (b: unknown) => Array.isArray(b) || isRecord(b);

/** The shape each expected answer must have (ETSI GS CIM 009 5.2); a body that is absent passes only for "nothing". */
const shapes: Record<Expected, (body: unknown) => boolean> = {
  entity: isEntity,
  entities: listOf(isEntity),
  types: isNamedList,
  attributes: isNamedList,
  subscription: (b) => isRecord(b) && typeof b.id === "string",
  subscriptions: listOf((b) => isRecord(b) && typeof b.id === "string"),
  registration: (b) => isRecord(b) && typeof b.id === "string",
  registrations: listOf((b) => isRecord(b) && typeof b.id === "string"),
  ids: (b) => b === undefined || listOf((i) => typeof i === "string")(b),
  batchResult: (b) => isRecord(b) && (b.success === undefined || Array.isArray(b.success)),
  updateResult: isRecord,
  nothing: () => true,
};

const foundWords: Record<Found, string> = {
  empty: "an empty body",
  null: "null",
  notJson: "a body that is not JSON",
  otherJson: "JSON of another shape",
};

const foundOf = (body: unknown): Found =>
  body === undefined ? "empty" : body === null ? "null" : "otherJson";

export interface ClientOptions {
  /** scheme://host:port[/path] of the broker; the API lives under /ngsi-ld/v1. */
  baseUrl: string;
  implementationName: string;
  tenant?: string;
  customHeaders?: Record<string, string>;
  /** The workspace's @context, sent as a Link header. */
  context?: string;
  bearer?: string;
  /** Every call's time limit, body included. Default 10 s. */
  timeoutMs?: number;
  /** A name for error messages ("Embedded broker"). */
  label?: string;
  /** Extra headers for entity calls only, e.g. { "Gateway-Authorization": "Bearer …" } */
  extraHeaders?: Record<string, string>;
  /** Temporal API base for Mintaka: scheme://host:port/path that ends with /ngsi-ld/v1; absent = the broker's own /ngsi-ld/v1/temporal */
  temporalBaseUrl?: string;
  /** Bearer for the temporal endpoint when it differs (Mintaka's own identity manager) */
  temporalBearer?: string;
  /** The context broker record's paginationMaxLimit: a page never asks for more. */
  paginationMaxLimit?: number;
  /** Page size for "all" helpers; default min(profile.pageSizeCap, paginationMaxLimit ?? cap) */
  pageSize?: number;
  /** Restrict queries to local data (profile decides local=true vs localOnly=true) */
  localOnly?: boolean;
  /** What a capability probe found that differs from the implementation's profile. */
  profileOverrides?: Partial<Omit<BrokerProfile, "name">>;
  /** For tests: a fetch implementation */
  fetch?: typeof fetch;
}

export interface Entity {
  id: string;
  type: string | string[];
  [attribute: string]: unknown;
}

export interface GeoQuery {
  geometry: string;
  /** GeoJSON coordinates; an array is sent as JSON text. */
  coordinates: unknown;
  georel: string;
  geoproperty?: string;
}

export interface EntityQuery {
  type?: string;
  id?: string | string[];
  idPattern?: string;
  q?: string;
  attrs?: string[];
  geoQ?: GeoQuery;
  limit?: number;
  offset?: number;
  count?: boolean;
  options?: "keyValues" | "sysAttrs" | "concise";
}

export interface TemporalParams {
  timerel?: "before" | "after" | "between";
  timeAt?: string;
  endTimeAt?: string;
  lastN?: number;
  /** sysAttrs: each instance with its createdAt and modifiedAt (the time of a value written without observedAt). */
  options?: "temporalValues" | "sysAttrs";
}

export type TemporalQuery = Omit<EntityQuery, "options" | "count"> & TemporalParams;

export interface BatchResult {
  success: string[];
  errors: { entityId: string; error: ProblemDetails }[];
}

/** A context source registration (5.2.9) as the broker answers it. */
export interface Registration {
  id: string;
  type: "ContextSourceRegistration";
  registrationName?: string;
  description?: string;
  information: Array<{
    entities?: Array<{ id?: string; idPattern?: string; type: string }>;
    propertyNames?: string[];
    relationshipNames?: string[];
  }>;
  endpoint: string;
  mode?: string;
  operations?: string[];
  tenant?: string;
  expiresAt?: string;
  [member: string]: unknown;
}

export type NewRegistration = Omit<Registration, "id" | "type"> & { id?: string };

/** A Subscription (5.2.12) as the broker answers it. */
export interface Subscription {
  id: string;
  type: string;
  [member: string]: unknown;
}

/** A subscription to create: the broker assigns the id when none is given. */
export type NewSubscription = Omit<Subscription, "id" | "type"> & { id?: string; type?: string };

export interface ContentRange {
  from: string;
  to: string;
  size?: number;
}

type Params = Record<string, string | number | boolean | undefined>;

interface Call {
  method?: string;
  path: string;
  query?: Params;
  body?: unknown;
  /** entity: /entities and /entityOperations (extraHeaders); temporal: the temporal base and bearer. */
  kind?: "entity" | "temporal" | "other";
  /** What a 2xx answer must hold, by its status (default: anything that is JSON, or nothing). */
  answer?: Expected | ((status: number) => Expected);
}

interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

const linkRel = 'rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"';

/** An id as a path segment; colons stay readable (they are legal in a segment). */
const seg = (id: string) => encodeURIComponent(id).replaceAll("%3A", ":");

/**
 * Parses a temporal Content-Range: Mintaka "date <from>-<to>/<n>", Stellio "date-time <from>-<to>/<n|*>"
 * (notes/ngsi-ld.md §1.6 and §2). The times contain dashes, so the split is on the dash before the
 * second timestamp.
 */
export function parseContentRange(header: string | null | undefined): ContentRange | undefined {
  if (!header) return undefined;
  const m = /^\s*[A-Za-z-]+\s+(\S+?)-(\d{4}-\d{2}-\d{2}\S*?)\s*\/\s*(\d+|\*)\s*$/.exec(header);
  if (!m) return undefined;
  return { from: m[1], to: m[2], ...(m[3] !== "*" ? { size: Number(m[3]) } : {}) };
}

/**
 * The connections to the brokers, shared by every client as fetch's own pool would be. A call
 * that gives up swaps it for a fresh one and closes the old one once the calls in flight on it are
 * over: on a timeout undici closes the request's socket, then opens another one for the aborted
 * request that nothing uses or closes (nodejs/undici#5845), one per call to a broker that hangs.
 */
let connections = new Agent();

function dropConnections(used: Agent): void {
  if (connections !== used) return;
  connections = new Agent();
  // A turn later: the calls that took it in this turn have handed it their requests by then.
  setImmediate(() => void used.close().catch(() => undefined));
}

/** How a call to a broker ended: ok, the status class of an error answer, or why no usable answer came. */
export type CallOutcome =
  "ok" | "3xx" | "4xx" | "5xx" | "timeout" | "refused" | "unreachable" | "redirect" | "unusable";

/** One call to a broker as its observers see it: the broker's implementation (its profile), outcome and duration. */
export interface CallRecord {
  implementation: BrokerProfile["name"];
  outcome: CallOutcome;
  seconds: number;
}

const observers = new Set<(call: CallRecord) => void>();

/**
 * Calls `observer` after every call of every client (the API counts them for GET /metrics); the
 * returned function stops it. A body that cannot be written is no call: it is not observed.
 */
export function observeCalls(observer: (call: CallRecord) => void): () => void {
  observers.add(observer);
  return () => void observers.delete(observer);
}

function outcomeOf(err: unknown): CallOutcome | undefined {
  if (!(err instanceof NgsiLdError)) return "unreachable";
  const failure = err.failure;
  if (!failure) return err.status < 400 ? "3xx" : err.status < 500 ? "4xx" : "5xx";
  if (failure.kind === "unwritable") return undefined;
  if (failure.kind === "unreachable")
    return failure.code === "ECONNREFUSED" ? "refused" : err.status === 502 ? "redirect" : "unreachable";
  return failure.kind;
}

/** The one way Orrery speaks NGSI-LD: every call carries tenant, context, custom headers and bearer, with a timeout. */
export class NgsiLdClient {
  readonly profile: BrokerProfile;
  /** The page size the "all" helpers use: never above the profile's cap nor the broker's paginationMaxLimit. */
  readonly pageSize: number;
  private readonly base: string;
  private readonly temporalBase: string;
  private readonly label: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.profile = { ...profileOf(options.implementationName), ...options.profileOverrides };
    this.base = `${options.baseUrl.replace(/\/$/, "")}/ngsi-ld/v1`;
    this.temporalBase = options.temporalBaseUrl ? options.temporalBaseUrl.replace(/\/$/, "") : this.base;
    this.label = options.label ?? options.baseUrl;
    this.fetch = options.fetch ?? (undiciFetch as unknown as typeof fetch);
    const cap = Math.min(this.profile.pageSizeCap, options.paginationMaxLimit ?? this.profile.pageSizeCap);
    this.pageSize = Math.max(1, Math.min(options.pageSize ?? cap, cap));
  }

  /**
   * What decides this client's answers (broker, tenant, headers, context, credentials), as one
   * string: two clients with the same `answers` get the same answer to the same query. Meant for
   * keys of work shared between callers, never for display (it holds credentials).
   */
  get answers(): string {
    const { fetch: _fetch, timeoutMs: _timeout, label: _label, ...decisive } = this.options;
    return JSON.stringify(decisive);
  }

  /** True when temporal reads go to a separate Mintaka service. */
  get usesMintaka(): boolean {
    return Boolean(this.options.temporalBaseUrl);
  }

  private async call<T>(c: Call): Promise<Answer<T>> {
    if (observers.size === 0) return this.send<T>(c);
    const started = performance.now();
    let outcome: CallOutcome | undefined = "ok";
    try {
      return await this.send<T>(c);
    } catch (err) {
      outcome = outcomeOf(err);
      throw err;
    } finally {
      if (outcome) {
        const call = {
          implementation: this.profile.name,
          outcome,
          seconds: (performance.now() - started) / 1000,
        };
        for (const observer of observers) observer(call);
      }
    }
  }

  private async send<T>(c: Call): Promise<Answer<T>> {
    const o = this.options;
    const temporal = c.kind === "temporal";
    const url = new URL(`${temporal ? this.temporalBase : this.base}${c.path}`);
    for (const [k, v] of Object.entries(c.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    // Custom headers belong to the broker (its gateway); a separate Mintaka host does not get them.
    const headers: Record<string, string> = {
      accept: "application/json",
      ...(temporal && this.usesMintaka ? {} : o.customHeaders),
    };
    if (o.tenant) headers["NGSILD-Tenant"] = o.tenant;
    const bearer = temporal && this.usesMintaka ? (o.temporalBearer ?? o.bearer) : o.bearer;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (c.kind === "entity") Object.assign(headers, o.extraHeaders);
    let payload: string | undefined;
    let ldBody = false;
    if (c.body !== undefined) {
      // An @context in the body means application/ld+json, and then a Link header is forbidden (notes §1.2).
      const items = Array.isArray(c.body) ? c.body : [c.body];
      ldBody = items.some((i) => typeof i === "object" && i !== null && "@context" in i);
      headers["content-type"] = ldBody ? "application/ld+json" : "application/json";
      try {
        payload = JSON.stringify(c.body);
      } catch (err) {
        // Nesting deep enough to overflow the stack, a cycle, a BigInt: nothing is sent.
        const cause = (err as Error).message;
        throw new NgsiLdError(400, { title: `The body cannot be written as JSON: ${cause}` }, this.label, {
          kind: "unwritable",
          cause,
        });
      }
    }
    if (o.context && !ldBody) headers.link = `<${o.context}>; ${linkRel}`;

    let response: Response;
    let text: string;
    const dispatcher = connections;
    try {
      const signal = AbortSignal.timeout(o.timeoutMs ?? 10_000);
      response = await this.fetch(url, {
        method: c.method ?? "GET",
        headers,
        body: payload,
        signal,
        dispatcher,
        // The call carries the broker's credentials (bearer, custom headers such as an API key):
        // they are not sent on to whatever host a redirect names.
        redirect: "manual",
      } as RequestInit);
      text = await response.text();
    } catch (err) {
      dropConnections(dispatcher);
      const e = err as Error;
      if (e.name === "TimeoutError" || e.name === "AbortError")
        throw new NgsiLdError(
          504,
          { title: `The context broker ${this.label} did not answer in time` },
          this.label,
          { kind: "timeout" },
        );
      const cause = (e as { cause?: Error }).cause?.message ?? e.message;
      const code = (e as { cause?: { code?: unknown } }).cause?.code;
      throw new NgsiLdError(
        504,
        { title: `The context broker ${this.label} could not be reached (${cause})` },
        this.label,
        { kind: "unreachable", cause, ...(typeof code === "string" ? { code } : {}) },
      );
    }
    const location =
      response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
    if (location !== null) {
      const target = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      const shown = target ? `${target.origin}${target.pathname}` : location.slice(0, 300);
      const cause = `it redirected to ${shown}; Orrery does not send credentials to another address`;
      throw new NgsiLdError(
        502,
        { title: `The context broker ${this.label} could not be reached (${cause})` },
        this.label,
        {
          kind: "unreachable",
          cause,
        },
      );
    }
    let body: unknown;
    let json = true;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      json = false;
    }
    if (response.ok) {
      // A gateway's HTML page, an empty or null body where data was due: nothing to build on.
      const expected = typeof c.answer === "function" ? c.answer(response.status) : (c.answer ?? "nothing");
      const found: Found | undefined = !json ? "notJson" : shapes[expected](body) ? undefined : foundOf(body);
      if (found)
        throw new NgsiLdError(
          502,
          {
            title: `The context broker ${this.label} answered ${response.status} with ${foundWords[found]} where ${expected === "nothing" ? "JSON or nothing" : expected} was expected`,
            ...(json ? {} : { detail: text.slice(0, 300) }),
          },
          this.label,
          { kind: "unusable", expected, found, answered: response.status },
        );
    }
    if (!response.ok) {
      const problem: ProblemDetails = isRecord(body)
        ? (body as ProblemDetails)
        : {
            title: `${response.status} ${response.statusText}`.trim(),
            ...(json ? {} : { detail: text.slice(0, 300) }),
          };
      if (problem.title === undefined) problem.title = `${response.status} ${response.statusText}`.trim();
      throw new NgsiLdError(response.status, problem, this.label);
    }
    return { status: response.status, body: body as T, headers: response.headers };
  }

  private localFlag(): Params {
    return this.options.localOnly ? { [this.profile.localParameter]: true } : {};
  }

  private cap(limit: number): number {
    return Math.max(0, Math.min(limit, this.pageSize));
  }

  private entityParams(q: EntityQuery | TemporalQuery): Params {
    const geo = q.geoQ;
    return {
      type: q.type,
      id: Array.isArray(q.id) ? q.id.join(",") : q.id,
      idPattern: q.idPattern,
      q: q.q,
      attrs: q.attrs?.length ? q.attrs.join(",") : undefined,
      geometry: geo?.geometry,
      coordinates:
        geo === undefined
          ? undefined
          : typeof geo.coordinates === "string"
            ? geo.coordinates
            : JSON.stringify(geo.coordinates),
      georel: geo?.georel,
      geoproperty: geo?.geoproperty,
      ...this.localFlag(),
    };
  }

  // ---------------------------------------------------------------- discovery

  /** GET /types?details=true: each type with its attribute names. */
  async types(): Promise<Array<{ id: string; typeName: string; attributeNames: string[] }>> {
    const { body } = await this.call<
      Array<{ id: string; typeName: string; attributeNames?: string[] }> | { typeList?: string[] }
    >({ path: "/types", query: { details: true }, answer: "types" });
    if (body && !Array.isArray(body))
      return (body.typeList ?? []).map((t) => ({ id: t, typeName: t, attributeNames: [] }));
    return (body ?? []).map((t) => ({ ...t, attributeNames: t.attributeNames ?? [] }));
  }

  /** GET /attributes?details=true: each attribute with the types that use it. */
  async attributes(): Promise<
    Array<{ id: string; attributeName: string; attributeCount?: number; typeNames?: string[] }>
  > {
    const { body } = await this.call<
      | Array<{ id: string; attributeName: string; attributeCount?: number; typeNames?: string[] }>
      | { attributeList?: string[] }
    >({ path: "/attributes", query: { details: true }, answer: "attributes" });
    // A broker that ignores details answers an AttributeList (notes §1.7).
    if (body && !Array.isArray(body))
      return (body.attributeList ?? []).map((a) => ({ id: a, attributeName: a }));
    return body ?? [];
  }

  // ---------------------------------------------------------------- query

  /** GET /entities of one type, page by page up to `max` (a hard bound: discovery samples, it never dumps a broker). */
  async entitiesOfType(type: string, max: number): Promise<Entity[]> {
    const out: Entity[] = [];
    for await (const page of this.entityPages({ type }, { max })) out.push(...page);
    return out;
  }

  /** One page of GET /entities; `count` comes from NGSILD-Results-Count; the limit is capped to pageSize (≤ the broker's cap). */
  async queryEntities(q: EntityQuery): Promise<{ entities: Entity[]; count?: number }> {
    const { body, headers } = await this.call<Entity[]>({
      path: "/entities",
      kind: "entity",
      answer: "entities",
      query: {
        ...this.entityParams(q),
        limit: q.limit !== undefined ? this.cap(q.limit) : undefined,
        offset: q.offset,
        count: q.count ? true : undefined,
        options: q.options,
      },
    });
    const total = headers.get("NGSILD-Results-Count");
    return {
      entities: Array.isArray(body) ? body : [],
      ...(total !== null && total !== "" && !Number.isNaN(Number(total)) ? { count: Number(total) } : {}),
    };
  }

  /** Pages of GET /entities by offset, up to `max` entities in all (default 1,000,000); stops on a short page. */
  async *entityPages(q: EntityQuery, opts: { max?: number } = {}): AsyncGenerator<Entity[]> {
    const max = opts.max ?? 1_000_000;
    const pageSize = this.cap(q.limit ?? this.pageSize) || this.pageSize;
    let offset = q.offset ?? 0;
    let seen = 0;
    while (seen < max) {
      const limit = Math.min(pageSize, max - seen);
      const { entities } = await this.queryEntities({ ...q, count: false, limit, offset });
      if (entities.length) yield entities.slice(0, max - seen);
      seen += entities.length;
      offset += entities.length;
      if (entities.length < limit) break;
    }
  }

  // ---------------------------------------------------------------- entities

  /** GET /entities/{id}; a missing entity is NgsiLdError 404. */
  async getEntity(
    id: string,
    opts: { attrs?: string[]; type?: string; options?: "keyValues" | "sysAttrs" | "concise" } = {},
  ): Promise<Entity> {
    const { body } = await this.call<Entity>({
      path: `/entities/${seg(id)}`,
      kind: "entity",
      answer: "entity",
      query: { attrs: opts.attrs?.join(","), type: opts.type, options: opts.options },
    });
    return body;
  }

  /** POST /entities (201). */
  async createEntity(entity: Entity): Promise<void> {
    await this.call({ method: "POST", path: "/entities", kind: "entity", body: entity });
  }

  /** PUT /entities/{id} (Replace Entity), or a batch upsert with options=replace where PUT is missing. */
  async replaceEntity(entity: Entity): Promise<void> {
    if (this.profile.putReplace) {
      await this.call({ method: "PUT", path: `/entities/${seg(entity.id)}`, kind: "entity", body: entity });
      return;
    }
    const result = await this.batchUpsert([entity], { mode: "replace" });
    this.throwFirst(result);
  }

  /** PATCH /entities/{id} (Merge Entity), or POST /entities/{id}/attrs where merge-patch is missing. */
  async mergeEntity(id: string, fragment: Record<string, unknown>): Promise<void> {
    if (this.profile.mergePatch) {
      await this.call({ method: "PATCH", path: `/entities/${seg(id)}`, kind: "entity", body: fragment });
      return;
    }
    const { id: _id, type: _type, ...attrs } = fragment;
    await this.appendAttributes(id, attrs);
  }

  /** DELETE /entities/{id} (204). */
  async deleteEntity(id: string): Promise<void> {
    await this.call({ method: "DELETE", path: `/entities/${seg(id)}`, kind: "entity" });
  }

  /** POST /entities/{id}/attrs; a 207 (some attributes not updated) is an NgsiLdError 207 listing them. */
  async appendAttributes(
    id: string,
    attrs: Record<string, unknown>,
    opts: { noOverwrite?: boolean } = {},
  ): Promise<void> {
    const { status, body } = await this.call<{
      updated?: string[];
      notUpdated?: { attributeName: string; reason?: string }[];
    }>({
      method: "POST",
      path: `/entities/${seg(id)}/attrs`,
      kind: "entity",
      answer: (status) => (status === 207 ? "updateResult" : "nothing"),
      query: { options: opts.noOverwrite ? "noOverwrite" : undefined },
      body: attrs,
    });
    if (status === 207) {
      const notUpdated = body?.notUpdated ?? [];
      throw new NgsiLdError(
        207,
        {
          title: "Some attributes were not updated",
          detail: notUpdated.map((n) => `${n.attributeName}${n.reason ? `: ${n.reason}` : ""}`).join("; "),
          updated: body?.updated ?? [],
          notUpdated,
        },
        this.label,
      );
    }
  }

  /** PATCH /entities/{id}/attrs/{name} (Partial Attribute Update). */
  async updateAttribute(id: string, name: string, attribute: unknown): Promise<void> {
    await this.call({
      method: "PATCH",
      path: `/entities/${seg(id)}/attrs/${seg(name)}`,
      kind: "entity",
      body: attribute,
    });
  }

  /** DELETE /entities/{id}/attrs/{name}[?datasetId=|deleteAll=true]. */
  async deleteAttribute(
    id: string,
    name: string,
    opts: { datasetId?: string; deleteAll?: boolean } = {},
  ): Promise<void> {
    await this.call({
      method: "DELETE",
      path: `/entities/${seg(id)}/attrs/${seg(name)}`,
      kind: "entity",
      query: { datasetId: opts.datasetId, deleteAll: opts.deleteAll ? true : undefined },
    });
  }

  // ---------------------------------------------------------------- batch

  private throwFirst(result: BatchResult): void {
    const first = result.errors[0];
    if (first) throw new NgsiLdError(first.error.status ?? 400, first.error, this.label);
  }

  /**
   * One batch operation, chunked to the profile's batchMax. 201 and 204 mean every item succeeded
   * (a 201 body lists only the created ids on upsert, so the request's ids are the successes);
   * 207 is a BatchOperationResult. A whole-request failure throws.
   */
  private async batch(
    operation: "create" | "upsert" | "update" | "delete",
    items: unknown[],
    ids: string[],
    query: Params = {},
  ): Promise<BatchResult> {
    const result: BatchResult = { success: [], errors: [] };
    for (let i = 0; i < items.length; i += this.profile.batchMax) {
      const chunk = items.slice(i, i + this.profile.batchMax);
      const chunkIds = ids.slice(i, i + this.profile.batchMax);
      const { status, body } = await this.call<
        { success?: string[]; errors?: { entityId: string; error: ProblemDetails }[] } | string[] | undefined
      >({
        method: "POST",
        path: `/entityOperations/${operation}`,
        kind: "entity",
        // 201 lists the created ids (an upsert's may be empty), 204 has no body, 207 is a BatchOperationResult.
        answer: (status) => (status === 207 ? "batchResult" : "ids"),
        query,
        body: chunk,
      });
      if (status === 207 && body && !Array.isArray(body)) {
        result.success.push(...(body.success ?? []));
        for (const e of body.errors ?? [])
          result.errors.push({ entityId: e.entityId, error: e.error ?? { title: "failed" } });
      } else {
        result.success.push(...new Set(chunkIds));
      }
    }
    return result;
  }

  /** POST /entityOperations/create. */
  batchCreate(entities: Entity[]): Promise<BatchResult> {
    return this.batch(
      "create",
      entities,
      entities.map((e) => e.id),
    );
  }

  /** POST /entityOperations/upsert[?options=update|replace] (replace is the broker default). */
  batchUpsert(entities: Entity[], opts: { mode?: "update" | "replace" } = {}): Promise<BatchResult> {
    return this.batch(
      "upsert",
      entities,
      entities.map((e) => e.id),
      { options: opts.mode },
    );
  }

  /** POST /entityOperations/update[?options=noOverwrite]. */
  batchUpdate(entities: Entity[], opts: { noOverwrite?: boolean } = {}): Promise<BatchResult> {
    return this.batch(
      "update",
      entities,
      entities.map((e) => e.id),
      { options: opts.noOverwrite ? "noOverwrite" : undefined },
    );
  }

  /** POST /entityOperations/delete with the ids. */
  batchDelete(ids: string[]): Promise<BatchResult> {
    return this.batch("delete", ids, ids);
  }

  // ---------------------------------------------------------------- subscriptions

  /** GET /subscriptions, every page, up to `max` (default 100,000). */
  async subscriptions(opts: { max?: number } = {}): Promise<Subscription[]> {
    const max = opts.max ?? 100_000;
    const out: Subscription[] = [];
    while (out.length < max) {
      const limit = Math.min(this.pageSize, max - out.length);
      const { body } = await this.call<Subscription[]>({
        path: "/subscriptions",
        answer: "subscriptions",
        query: { limit, offset: out.length },
      });
      const page = Array.isArray(body) ? body : [];
      out.push(...page.slice(0, max - out.length));
      if (page.length < limit) break;
    }
    return out;
  }

  /** GET /subscriptions/{id}. */
  async getSubscription(id: string): Promise<Subscription> {
    return (await this.call<Subscription>({ path: `/subscriptions/${seg(id)}`, answer: "subscription" }))
      .body;
  }

  /** POST /subscriptions; the new id comes from Location (or the body, or the subscription itself). */
  async createSubscription(sub: NewSubscription): Promise<string> {
    const { body, headers } = await this.call<{ id?: string } | undefined>({
      method: "POST",
      path: "/subscriptions",
      body: { ...sub, type: sub.type ?? "Subscription" },
    });
    const location = headers.get("location");
    const fromLocation = location ? decodeURIComponent(location.replace(/\/$/, "").split("/").pop()!) : "";
    const id = fromLocation || body?.id || sub.id;
    if (!id)
      throw new NgsiLdError(
        502,
        { title: "The broker created a subscription without saying its id" },
        this.label,
      );
    return id;
  }

  /** PATCH /subscriptions/{id}. */
  async updateSubscription(id: string, patch: Record<string, unknown>): Promise<void> {
    await this.call({ method: "PATCH", path: `/subscriptions/${seg(id)}`, body: patch });
  }

  /** DELETE /subscriptions/{id}. */
  async deleteSubscription(id: string): Promise<void> {
    await this.call({ method: "DELETE", path: `/subscriptions/${seg(id)}` });
  }

  // ---------------------------------------------------------------- context source registrations

  /**
   * GET /csourceRegistrations, every page, up to `max` (default 10,000), as the profile lists them
   * all (registrationListing): plainly, with the local flag, or by the types the broker holds.
   */
  async registrations(opts: { max?: number } = {}): Promise<Registration[]> {
    const max = opts.max ?? 10_000;
    const how = this.profile.registrationListing;
    let condition: Params = {};
    if (how === "local") condition = { [this.profile.localParameter]: true };
    if (how === "byTypes") {
      const types = (await this.types()).map((t) => t.typeName);
      if (types.length === 0) return [];
      condition = { type: types.join(",") };
    }
    const out: Registration[] = [];
    while (out.length < max) {
      const limit = Math.min(this.pageSize, max - out.length);
      const { body } = await this.call<Registration[]>({
        path: "/csourceRegistrations",
        answer: "registrations",
        query: { ...condition, limit, offset: out.length },
      });
      const page = Array.isArray(body) ? body : [];
      out.push(...page.slice(0, max - out.length));
      if (page.length < limit) break;
    }
    return out;
  }

  /** GET /csourceRegistrations/{id}. */
  async getRegistration(id: string): Promise<Registration> {
    return (
      await this.call<Registration>({ path: `/csourceRegistrations/${seg(id)}`, answer: "registration" })
    ).body;
  }

  /** POST /csourceRegistrations; the new id comes from Location (or the registration itself). */
  async createRegistration(registration: NewRegistration): Promise<string> {
    const { headers } = await this.call({
      method: "POST",
      path: "/csourceRegistrations",
      body: { ...registration, type: "ContextSourceRegistration" },
    });
    const location = headers.get("location");
    const id =
      (location ? decodeURIComponent(location.replace(/\/$/, "").split("/").pop()!) : "") || registration.id;
    if (!id)
      throw new NgsiLdError(
        502,
        { title: "The broker created a registration without saying its id" },
        this.label,
      );
    return id;
  }

  /** DELETE /csourceRegistrations/{id}. */
  async deleteRegistration(id: string): Promise<void> {
    await this.call({ method: "DELETE", path: `/csourceRegistrations/${seg(id)}` });
  }

  // ---------------------------------------------------------------- temporal

  private temporalParams(q: TemporalParams): Params {
    return {
      timerel: q.timerel,
      timeAt: q.timeAt,
      endTimeAt: q.endTimeAt,
      lastN: q.lastN,
      options: q.options,
    };
  }

  /**
   * GET {temporal base}/temporal/entities/{id}: the broker's own API, or Mintaka's when
   * temporalBaseUrl is set. A 206 (instances capped) carries its Content-Range.
   */
  async temporalEntity(
    id: string,
    q: { attrs?: string[]; lastN?: number } & TemporalParams = {},
  ): Promise<{ entity: Entity; contentRange?: ContentRange }> {
    const { body, headers } = await this.call<Entity>({
      path: `/temporal/entities/${seg(id)}`,
      kind: "temporal",
      answer: "entity",
      query: { attrs: q.attrs?.join(","), ...this.temporalParams(q) },
    });
    const contentRange = parseContentRange(headers.get("content-range"));
    return { entity: body, ...(contentRange ? { contentRange } : {}) };
  }

  /**
   * GET {temporal base}/temporal/entities, every page up to `max` entities (default 100,000).
   * Native brokers page with limit/offset; Mintaka with pageSize and the Next-Page anchor
   * (notes §2 "Temporal reads"). Stellio needs timerel+timeAt: absent, "before now" is sent.
   */
  async queryTemporal(q: TemporalQuery & { max?: number }): Promise<Entity[]> {
    const max = q.max ?? 100_000;
    const timing: TemporalParams = { ...q };
    if (this.profile.temporalQueryNeedsTimerel && !this.usesMintaka && !timing.timerel) {
      timing.timerel = "before";
      timing.timeAt = new Date().toISOString();
    }
    const base = { ...this.entityParams(q), ...this.temporalParams(timing) };
    const out: Entity[] = [];
    if (this.usesMintaka) {
      // Mintaka's default page is 100 (notes §2); the local flag is not one of its parameters.
      const { local: _l, localOnly: _lo, ...params } = base;
      let anchor: string | undefined;
      while (out.length < max) {
        const pageSize = Math.min(100, this.pageSize, max - out.length);
        const { body, headers } = await this.call<Entity[]>({
          path: "/temporal/entities",
          kind: "temporal",
          answer: "entities",
          query: { ...params, pageSize, pageAnchor: anchor },
        });
        const page = Array.isArray(body) ? body : [];
        out.push(...page.slice(0, max - out.length));
        anchor = headers.get("next-page") ?? undefined;
        if (!anchor || page.length === 0) break;
      }
      return out;
    }
    let offset = q.offset ?? 0;
    while (out.length < max) {
      const limit = Math.min(this.cap(q.limit ?? this.pageSize) || this.pageSize, max - out.length);
      const { body } = await this.call<Entity[]>({
        path: "/temporal/entities",
        kind: "temporal",
        answer: "entities",
        query: { ...base, limit, offset },
      });
      const page = Array.isArray(body) ? body : [];
      out.push(...page.slice(0, max - out.length));
      offset += page.length;
      if (page.length < limit) break;
    }
    return out;
  }

  /**
   * POST /temporal/entities (create or add instances). Always the broker's own API: Mintaka only
   * reads what the broker records (notes §2 "Temporal writes" / "Temporal reads").
   */
  async addTemporalInstances(entity: Entity): Promise<void> {
    await this.call({ method: "POST", path: "/temporal/entities", body: entity });
  }

  /** POST /temporal/entities/{id}/attrs: instances added to an existing history (the broker's own API). */
  async appendTemporalInstances(id: string, fragment: Record<string, unknown>): Promise<void> {
    await this.call({ method: "POST", path: `/temporal/entities/${seg(id)}/attrs`, body: fragment });
  }

  /** PATCH /temporal/entities/{id}/attrs/{attribute}/{instanceId}: corrects one instance, which keeps its instanceId. */
  async modifyTemporalInstance(
    id: string,
    attribute: string,
    instanceId: string,
    fragment: Record<string, unknown>,
  ): Promise<void> {
    await this.call({
      method: "PATCH",
      path: `/temporal/entities/${seg(id)}/attrs/${seg(attribute)}/${seg(instanceId)}`,
      body: fragment,
    });
  }

  /** DELETE /temporal/entities/{id}/attrs/{attribute}/{instanceId}. */
  async deleteTemporalInstance(id: string, attribute: string, instanceId: string): Promise<void> {
    await this.call({
      method: "DELETE",
      path: `/temporal/entities/${seg(id)}/attrs/${seg(attribute)}/${seg(instanceId)}`,
    });
  }
}
