import { profileOf, type BrokerProfile } from "./profiles.ts";

/** A broker's failure, carrying its problem details (or the reason it could not be reached). */
export class NgsiLdError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { type?: string; title?: string; detail?: string; [k: string]: unknown },
    readonly broker: string,
  ) {
    super(`${broker}: ${problem.title ?? "error"}${problem.detail ? ` (${problem.detail})` : ""}`);
  }
}

export interface ClientOptions {
  /** scheme://host:port[/path] of the broker; the API lives under /ngsi-ld/v1. */
  baseUrl: string;
  implementationName: string;
  tenant?: string;
  customHeaders?: Record<string, string>;
  /** The workspace's @context, sent as a Link header. */
  context?: string;
  bearer?: string;
  timeoutMs?: number;
  /** A name for error messages ("Embedded broker"). */
  label?: string;
}

export interface Entity {
  id: string;
  type: string | string[];
  [attribute: string]: unknown;
}

const linkRel = 'rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"';

/** The one way Orrery speaks NGSI-LD: every call carries tenant, context, custom headers and bearer, with a timeout. */
export class NgsiLdClient {
  readonly profile: BrokerProfile;
  private readonly base: string;
  private readonly label: string;

  constructor(private readonly options: ClientOptions) {
    this.profile = profileOf(options.implementationName);
    this.base = `${options.baseUrl.replace(/\/$/, "")}/ngsi-ld/v1`;
    this.label = options.label ?? options.baseUrl;
  }

  private async call<T>(
    path: string,
    query: Record<string, string | number | boolean | undefined> = {},
  ): Promise<{ body: T; headers: Headers }> {
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: "application/json", ...this.options.customHeaders };
    if (this.options.tenant) headers["NGSILD-Tenant"] = this.options.tenant;
    if (this.options.context) headers.link = `<${this.options.context}>; ${linkRel}`;
    if (this.options.bearer) headers.authorization = `Bearer ${this.options.bearer}`;
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    } catch (err) {
      const reason =
        (err as Error).name === "TimeoutError"
          ? "did not answer in time"
          : `could not be reached (${(err as Error).message})`;
      throw new NgsiLdError(504, { title: `The context broker ${reason}` }, this.label);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = { title: text.slice(0, 300) };
    }
    if (!response.ok)
      throw new NgsiLdError(response.status, (body ?? {}) as NgsiLdError["problem"], this.label);
    return { body: body as T, headers: response.headers };
  }

  /** GET /types?details=true: each type with its attribute names. */
  async types(): Promise<Array<{ id: string; typeName: string; attributeNames: string[] }>> {
    const { body } = await this.call<Array<{ id: string; typeName: string; attributeNames?: string[] }>>(
      "/types",
      { details: true },
    );
    return (body ?? []).map((t) => ({ ...t, attributeNames: t.attributeNames ?? [] }));
  }

  /** GET /entities of one type, page by page up to `max` (a hard bound: discovery samples, it never dumps a broker). */
  async entitiesOfType(type: string, max: number): Promise<Entity[]> {
    const pageSize = Math.min(this.profile.pageSizeCap, max);
    const out: Entity[] = [];
    for (let offset = 0; out.length < max; offset += pageSize) {
      const { body } = await this.call<Entity[]>("/entities", {
        type,
        limit: Math.min(pageSize, max - out.length),
        offset,
      });
      out.push(...(body ?? []));
      if (!body || body.length < pageSize) break;
    }
    return out;
  }
}
