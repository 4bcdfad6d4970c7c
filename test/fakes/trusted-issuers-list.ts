import { listen, readBody, sendJson, type Listening } from "./http.ts";

/**
 * A fake FIWARE trusted-issuers-list (its management API, api/trusted-issuers-list.yaml v4):
 * POST /issuer (201 with Location, 409 when the DID is there), GET, PUT (the body's DID must be the
 * path's) and DELETE /issuer/{did}, errors as RFC 7807 problem details.
 */
export interface FakeTrustedIssuersList extends Listening {
  readonly issuers: Map<string, { did: string; credentials: unknown[] }>;
}

export async function startFakeTrustedIssuersList(port = 0): Promise<FakeTrustedIssuersList> {
  const issuers = new Map<string, { did: string; credentials: unknown[] }>();
  const problem = (status: number, title: string, detail: string) => ({
    type: `https://httpstatuses.io/${status}`,
    title,
    status,
    detail,
    instance: `urn:uuid:${crypto.randomUUID()}`,
  });
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
    if (req.method === "POST" && url.pathname === "/issuer") {
      const issuer = await parse(readBody(req));
      if (!issuer) return sendJson(res, 400, problem(400, "Bad Request", "did and credentials are required"));
      if (issuers.has(issuer.did))
        return sendJson(res, 409, problem(409, "Conflict", "Issuer already exists"));
      issuers.set(issuer.did, issuer);
      res.writeHead(201, { location: `/issuer/${encodeURIComponent(issuer.did)}` }).end();
      return;
    }
    if (id && req.method === "GET")
      return issuers.has(id)
        ? sendJson(res, 200, issuers.get(id))
        : sendJson(res, 404, problem(404, "Not Found", id));
    if (id && req.method === "PUT") {
      const issuer = await parse(readBody(req));
      if (!issuer || issuer.did !== id)
        return sendJson(res, 400, problem(400, "Bad Request", "the body's did must be the path's"));
      if (!issuers.has(id)) return sendJson(res, 404, problem(404, "Not Found", id));
      issuers.set(id, issuer);
      return sendJson(res, 200, issuer);
    }
    if (id && req.method === "DELETE") {
      if (!issuers.delete(id)) return sendJson(res, 404, problem(404, "Not Found", id));
      res.writeHead(204).end();
      return;
    }
    if (req.method === "GET" && url.pathname === "/_fake/issuers")
      return sendJson(res, 200, [...issuers.values()]);
    return sendJson(res, 404, problem(404, "Not Found", url.pathname));
  }, port);
  return { ...server, issuers };
}
