import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A fake peer listening on a loopback port chosen by the system. */
export interface Listening {
  url: string;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/** Plain node:http so the fakes depend on nothing the code under test uses. Port 0: one the system picks. */
export async function listen(handler: Handler, port = 0): Promise<Listening> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    Promise.resolve(handler(req, res, url)).catch((err: unknown) => {
      // A broken fake must fail the test loudly, not hang it.
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`fake failed: ${(err as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}

/**
 * Client id and secret from `Authorization: Basic`. RFC 6749 section 2.3.1 form-encodes both (OIDC
 * clients do); Keyrock reads them raw with the basic-auth package, so it passes formEncoded: false.
 */
export function basicCredentials(
  header: string | undefined,
  formEncoded: boolean,
): { id: string; secret: string } | undefined {
  const [scheme, value] = (header ?? "").split(" ");
  if (scheme?.toLowerCase() !== "basic" || !value) return undefined;
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const unescape = (s: string) => (formEncoded ? decodeURIComponent(s.replace(/\+/g, " ")) : s);
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

export const isForm = (req: IncomingMessage) =>
  (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() ===
  "application/x-www-form-urlencoded";
