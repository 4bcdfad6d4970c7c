import { createHash } from "node:crypto";
import { listen, readBody, sendJson, type Listening } from "./http.ts";

/**
 * A fake FIWARE trusted-issuers-list (its management API, api/trusted-issuers-list.yaml of 0.8.1,
 * and the TIR read API of the same process), answering as the Java service does (notes/fdsc.md §4):
 * POST /issuer (201, empty body, `Location: /v4/issuers/{did}`; 409 "Issuer already exists."),
 * GET /issuer paged by page number, GET, PUT (the body's DID must be the path's) and DELETE
 * /issuer/{did} with an empty 404, and /v4/issuers whose `page[after]` is a page index.
 */
export interface FakeTrustedIssuersList extends Listening {
  readonly issuers: Map<string, { did: string; credentials: unknown[] }>;
}

export async function startFakeTrustedIssuersList(port = 0): Promise<FakeTrustedIssuersList> {
  const issuers = new Map<string, { did: string; credentials: unknown[] }>();
  const invalid = (detail: string) => ({
    status: 400,
    title: "Received an invalid issuer configuration.",
    detail,
  });
  const empty404 = (res: Parameters<Parameters<typeof listen>[0]>[1]) => void res.writeHead(404).end();
  const sorted = () => [...issuers.keys()].sort();
  const parse = async (text: Promise<string>) => {
    try {
      const body = JSON.parse(await text) as { did?: unknown; credentials?: unknown };
      return typeof body.did === "string" && Array.isArray(body.credentials)
        ? { did: body.did, credentials: body.credentials }
        : undefined;
    } catch {
      return undefined;
    }
  };
  const server = await listen(async (req, res, url) => {
    const did = /^\/issuer\/(.+)$/.exec(url.pathname)?.[1];
    const id = did && decodeURIComponent(did);
    if (req.method === "GET" && url.pathname === "/issuer") {
      const page = Number(url.searchParams.get("page") ?? 0);
      const pageSize = Number(url.searchParams.get("pageSize") ?? 10);
      if (
        !Number.isInteger(pageSize) ||
        pageSize < 1 ||
        pageSize > 100 ||
        !Number.isInteger(page) ||
        page < 0
      )
        return sendJson(res, 400, invalid("The requested page size is not supported."));
      const items = sorted().slice(page * pageSize, page * pageSize + pageSize);
      return sendJson(res, 200, { total: issuers.size, pageSize: items.length, page, items });
    }
    const tir = /^\/v4\/issuers\/?(.*)$/.exec(url.pathname);
    // Its links carry the host asked for (the real one honours X-Forwarded-*, notes/fdsc.md §4).
    const self = `http://${req.headers.host ?? url.host}/v4/issuers`;
    if (req.method === "GET" && tir) return tirAnswer(res, url, self, decodeURIComponent(tir[1]!));
    if (req.method === "POST" && url.pathname === "/issuer") {
      const issuer = await parse(readBody(req));
      if (!issuer) return sendJson(res, 400, invalid("did and credentials are required"));
      if (issuers.has(issuer.did))
        return sendJson(res, 409, {
          status: 409,
          title: "Conflict.",
          detail: "Issuer already exists.",
          instance: issuer.did,
        });
      issuers.set(issuer.did, issuer);
      // It points at the TIR read API, not at /issuer.
      res.writeHead(201, { location: `/v4/issuers/${issuer.did}` }).end();
      return;
    }
    if (id && req.method === "GET")
      return issuers.has(id) ? sendJson(res, 200, issuers.get(id)) : empty404(res);
    if (id && req.method === "PUT") {
      const issuer = await parse(readBody(req));
      if (!issuer) return sendJson(res, 400, invalid("did and credentials are required"));
      // An unknown issuer is a 404 before the DIDs are compared (TrustedIssuersListController).
      if (!issuers.has(id)) return empty404(res);
      if (issuer.did !== id) return sendJson(res, 400, invalid("Did does not match the issuer object."));
      issuers.set(id, issuer);
      return sendJson(res, 200, issuer);
    }
    if (id && req.method === "DELETE") {
      if (!issuers.delete(id)) return empty404(res);
      res.writeHead(204).end();
      return;
    }
    if (req.method === "GET" && url.pathname === "/_fake/issuers")
      return sendJson(res, 200, [...issuers.values()]);
    return sendJson(res, 404, { status: 404, title: "Not Found", detail: "Page Not Found" });
  }, port);

  /**
   * The TIR read API: `page[after]` is a page index (links carry page numbers, their query built by
   * Micronaut's UriBuilder: after then size, names URL-encoded), pages of 10 unless asked (1–100),
   * each attribute's hash the base64 SHA-256 of its JSON bytes (TIRMapper).
   */
  function tirAnswer(res: Parameters<Parameters<typeof listen>[0]>[1], url: URL, self: string, did: string) {
    if (did) {
      if (!/^did:[^:]+:.+$/.test(did))
        return sendJson(res, 400, invalid("Provided string is not a valid did."));
      const issuer = issuers.get(did);
      if (!issuer) return empty404(res);
      const attributes = issuer.credentials.map((credential) => {
        const json = Buffer.from(JSON.stringify(credential));
        const hash = createHash("sha256").update(json).digest("base64");
        return { hash, body: json.toString("base64"), issuerType: "Undefined" };
      });
      return sendJson(res, 200, { did, attributes });
    }
    const size = Number(url.searchParams.get("page[size]") ?? 10);
    const after = Number(url.searchParams.get("page[after]") ?? 0);
    if (!Number.isInteger(size) || size < 1 || size > 100 || !Number.isInteger(after) || after < 0)
      return sendJson(res, 400, invalid("The requested page size is not supported."));
    const all = sorted();
    const items = all.slice(after * size, after * size + size).map((d) => ({ did: d, href: `${self}/${d}` }));
    if (!all.length) return sendJson(res, 200, { items: [], total: 0, pageSize: 0, self });
    const last = Math.max(0, Math.ceil(all.length / size) - 1);
    const link = (n: number) => `${self}?page%5Bafter%5D=${n}&page%5Bsize%5D=${size}`;
    return sendJson(res, 200, {
      self,
      items,
      total: all.length,
      pageSize: items.length,
      links: {
        first: link(0),
        last: link(last),
        ...(after > 0 ? { prev: link(after - 1) } : {}),
        ...(after < last ? { next: link(after + 1) } : {}),
      },
    });
  }
  return { ...server, issuers };
}
