import { fetchOnce } from "./outgoing.ts";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import jsonld from "jsonld";
import { NgsiLdError, badRequest } from "./problems.ts";

/** The core context the broker speaks (v1.8 behaviour) and the URLs it is known under. */
export const CORE_CONTEXT_URL = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
export const NGSI_LD = "https://uri.etsi.org/ngsi-ld/";
export const DEFAULT_VOCAB = "https://uri.etsi.org/ngsi-ld/default-context/";

const contextsDir = resolve(import.meta.dirname, "../contexts");
const readContext = (file: string) => JSON.parse(readFileSync(resolve(contextsDir, file), "utf8")) as object;
const v18 = readContext("core-context-v1.8.jsonld");
const v16 = readContext("core-context-v1.6.jsonld");

/** Served from the copies in ../contexts, never fetched (see contexts/README.md). */
const builtIn = new Map<string, object>();
for (const scheme of ["https", "http"]) {
  const base = `${scheme}://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context`;
  builtIn.set(`${base}.jsonld`, v18);
  builtIn.set(`${base}-v1.8.jsonld`, v18);
  builtIn.set(`${base}-v1.6.jsonld`, v16);
}

/**
 * A processed @context reduced to what the broker needs: term expansion and IRI compaction for
 * attribute names, entity types and vocab values. jsonld.js processes each distinct context once
 * (processContext); after that a term is a Map lookup, because a full jsonld.expand or compact per
 * request costs far more than the rest of the request (measured: ~0.2 ms per tiny entity, and
 * much more for large ones).
 */
export interface CompiledContext {
  /** The context as the client gave it (string, object or array), for "@context" in responses. */
  readonly value: unknown;
  /** A URL to send back in a Link header when the response is application/json. */
  readonly linkUrl: string;
  expand(term: string): string;
  compact(iri: string): string;
}

interface TermDefinition {
  "@id"?: string | null;
  _prefix?: boolean;
  reverse?: boolean;
}

interface ActiveContext {
  mappings: Map<string, TermDefinition>;
  "@vocab"?: string;
}

class TermMap implements CompiledContext {
  private readonly expanded = new Map<string, string>();
  private readonly compacted = new Map<string, string>();
  private readonly inverse = new Map<string, string>();
  private readonly prefixes: Array<[string, string]> = [];
  private readonly vocab: string;

  constructor(
    readonly value: unknown,
    readonly linkUrl: string,
    private readonly active: ActiveContext,
  ) {
    this.vocab = active["@vocab"] ?? DEFAULT_VOCAB;
    for (const [term, def] of active.mappings) {
      const iri = def["@id"];
      if (!iri || def.reverse || iri.startsWith("@")) continue;
      // JSON-LD term selection: the shortest term wins, then the lexicographically least.
      const current = this.inverse.get(iri);
      if (
        current === undefined ||
        term.length < current.length ||
        (term.length === current.length && term < current)
      )
        this.inverse.set(iri, term);
      if (def._prefix && !term.includes(":")) this.prefixes.push([term, iri]);
    }
    // Longest namespace first, so that the most specific prefix compacts an IRI.
    this.prefixes.sort((a, b) => b[1].length - a[1].length);
  }

  expand(term: string): string {
    let iri = this.expanded.get(term);
    if (iri === undefined) {
      iri = this.expandUncached(term);
      this.expanded.set(term, iri);
    }
    return iri;
  }

  private expandUncached(term: string): string {
    if (term.startsWith("@")) return term;
    const def = this.active.mappings.get(term);
    if (def && def["@id"]) return def["@id"];
    const colon = term.indexOf(":");
    if (colon > 0) {
      const prefix = term.slice(0, colon);
      const suffix = term.slice(colon + 1);
      if (suffix.startsWith("//")) return term; // an absolute IRI such as https://...
      const prefixDef = this.active.mappings.get(prefix);
      if (prefixDef?.["@id"] && prefixDef._prefix !== false) return prefixDef["@id"] + suffix;
      return term; // a compact-looking absolute IRI (urn:..., foo:bar) stays as it is
    }
    return this.vocab + term;
  }

  compact(iri: string): string {
    let term = this.compacted.get(iri);
    if (term === undefined) {
      term = this.compactUncached(iri);
      this.compacted.set(iri, term);
    }
    return term;
  }

  private compactUncached(iri: string): string {
    const term = this.inverse.get(iri);
    if (term !== undefined) return term;
    if (iri.startsWith(this.vocab)) {
      const rest = iri.slice(this.vocab.length);
      // Only when the short form expands back to the same IRI (no term of that name, no colon).
      if (rest && !rest.includes(":") && !this.active.mappings.has(rest)) return rest;
    }
    for (const [prefix, ns] of this.prefixes) {
      if (iri.startsWith(ns) && iri.length > ns.length) {
        const suffix = iri.slice(ns.length);
        const candidate = `${prefix}:${suffix}`;
        if (!this.active.mappings.has(candidate) && !suffix.startsWith("//")) return candidate;
      }
    }
    return iri;
  }
}

export interface ContextOptions {
  /** Milliseconds to wait for a remote @context before answering 503 LdContextNotAvailable. */
  timeoutMs: number;
  /** Extra documents served without fetching (workspace contexts the API generates, test contexts). */
  localContexts?: Record<string, object>;
  /** How many processed contexts and fetched documents to keep. */
  cacheSize?: number;
}

class ContextUnavailable extends Error {}

/** jsonld.js API that @types/jsonld does not declare: turns a local context into an active context. */
const processContext = (
  jsonld as unknown as {
    processContext(active: unknown, local: unknown, options: object): Promise<unknown>;
  }
).processContext;

/** Compiles request contexts with a local document loader, caching documents and results. */
export class ContextResolver {
  private readonly compiled = new Map<string, Promise<CompiledContext>>();
  private readonly documents = new Map<string, object>();
  private readonly cacheSize: number;
  readonly core: Promise<CompiledContext>;

  constructor(private readonly options: ContextOptions) {
    this.cacheSize = options.cacheSize ?? 200;
    this.core = this.compile(undefined);
  }

  /** The compiled form of a request's context; undefined means the core context alone. */
  compile(context: unknown): Promise<CompiledContext> {
    const key = context === undefined ? "" : JSON.stringify(context);
    let found = this.compiled.get(key);
    if (!found) {
      found = this.process(context);
      remember(this.compiled, key, found, this.cacheSize);
      // A failure (remote context down) must not stay cached: the next request tries again.
      found.catch(() => this.compiled.delete(key));
    }
    return found;
  }

  private async process(context: unknown): Promise<CompiledContext> {
    const userContexts = context === undefined ? [] : Array.isArray(context) ? context : [context];
    for (const c of userContexts) {
      if (typeof c !== "string" && (typeof c !== "object" || c === null || Array.isArray(c)))
        throw badRequest("@context must be a URL, an object or an array of those");
    }
    // The core context is always in force and comes last, so user terms cannot shadow it (v1.8 protects it).
    const local = [...userContexts, CORE_CONTEXT_URL];
    try {
      const active = (await processContext(await processContext(null, null, {}), local, {
        documentLoader: (url: string) => this.load(url),
      })) as ActiveContext;
      const single =
        userContexts.length === 1 && typeof userContexts[0] === "string" ? userContexts[0] : undefined;
      return new TermMap(context, single ?? CORE_CONTEXT_URL, active);
    } catch (error) {
      if (isUnavailable(error)) throw new NgsiLdError("LdContextNotAvailable", messageOf(error));
      throw badRequest(`invalid @context: ${messageOf(error)}`);
    }
  }

  private async load(url: string): Promise<{ contextUrl: null; documentUrl: string; document: object }> {
    const doc =
      builtIn.get(url) ??
      this.options.localContexts?.[url] ??
      this.documents.get(url) ??
      (await this.fetchRemote(url));
    return { contextUrl: null, documentUrl: url, document: doc };
  }

  private async fetchRemote(url: string): Promise<object> {
    if (!/^https?:\/\//.test(url))
      throw new ContextUnavailable(`cannot load @context ${url}: not an http(s) URL`);
    let document: object;
    try {
      document = await fetchOnce(
        url,
        {
          headers: { accept: "application/ld+json, application/json;q=0.9" },
          signal: AbortSignal.timeout(this.options.timeoutMs),
        },
        async (response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return (await response.json()) as object;
        },
      );
    } catch (error) {
      throw new ContextUnavailable(`cannot load @context ${url}: ${messageOf(error)}`);
    }
    if (typeof document !== "object" || document === null || !("@context" in document))
      throw new ContextUnavailable(`the document at ${url} is not a JSON-LD context (no @context member)`);
    remember(this.documents, url, document, this.cacheSize);
    return document;
  }
}

function isUnavailable(error: unknown): boolean {
  for (let e: any = error; e; e = e.details?.cause ?? e.cause) {
    if (e instanceof ContextUnavailable) return true;
  }
  return false;
}

function messageOf(error: unknown): string {
  for (let e: any = error; e; e = e.details?.cause ?? e.cause) {
    if (e instanceof ContextUnavailable) return e.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A small insertion-ordered cache: the oldest entry goes when the map is full. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, size: number): void {
  if (map.size >= size) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
