import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { SignJWT, importPKCS8 } from "jose";
import { z } from "zod";
import type { Config } from "../config.ts";
import { fetchWithin } from "../peers.ts";
import { problem } from "../problems.ts";

const SCOPE = "https://www.googleapis.com/auth/spreadsheets";
const sheetQuery = z.object({ spreadsheetId: z.string().min(1), sheetName: z.string().min(1) });
const rows = z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])));

interface ServiceAccount {
  client_email: string;
  private_key: string;
  token_uri?: string;
}

/** The service account's e-mail, which users share their sheets with (shown by the console). */
export function serviceAccountEmail(config: Config): string | null {
  if (!config.googleSheets) return null;
  try {
    return (JSON.parse(readFileSync(config.googleSheets.keyFile, "utf8")) as ServiceAccount).client_email;
  } catch {
    return null;
  }
}

/**
 * Google Sheets with a service account: a JWT bearer grant (RFC 7523, signed with jose) for an
 * access token, then the Sheets REST v4 values API. Without a configured account: 501.
 */
export function registerGoogleSheetsProxy(app: FastifyInstance, config: Config): void {
  let token: { value: string; expiresAt: number } | undefined;

  const settings = () => {
    if (!config.googleSheets) throw problem(501, "sheets.notConfigured");
    return config.googleSheets;
  };

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const { keyFile, tokenUrl } = settings();
    let account: ServiceAccount;
    try {
      account = JSON.parse(readFileSync(keyFile, "utf8")) as ServiceAccount;
    } catch (err) {
      throw problem(501, "sheets.badKey", { reason: (err as Error).message });
    }
    const audience = tokenUrl ?? account.token_uri ?? "https://oauth2.googleapis.com/token";
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(account.client_email)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(await importPKCS8(account.private_key, "RS256"));
    const body = await google(audience, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
    });
    const { access_token, expires_in } = body as { access_token?: string; expires_in?: number };
    if (!access_token) throw problem(502, "sheets.noToken");
    token = { value: access_token, expiresAt: Date.now() + Math.max(0, (expires_in ?? 3600) - 60) * 1000 };
    return access_token;
  }

  async function google(url: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchWithin(url, init, 15_000, Infinity, "google-sheets");
    } catch (err) {
      throw problem(502, "sheets.unreachable", { cause: (err as Error).message });
    }
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } | string };
    if (!response.ok) {
      const message = typeof body.error === "string" ? body.error : body.error?.message;
      const status = response.status === 404 || response.status === 403 ? response.status : 502;
      throw problem(status, "sheets.refused", { reason: message ?? `HTTP ${response.status}` });
    }
    return body;
  }

  const range = (q: z.infer<typeof sheetQuery>) =>
    `${settings().sheetsUrl}/v4/spreadsheets/${encodeURIComponent(q.spreadsheetId)}/values/${encodeURIComponent(q.sheetName)}`;
  const authorized = async (init: RequestInit = {}) => ({
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${await accessToken()}` },
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/api/proxies/google-sheets/read-sheet",
    {
      schema: {
        tags: ["proxies"],
        summary: "The cells of a sheet, header row first",
        querystring: sheetQuery,
        response: { 200: z.array(z.array(z.string())) },
      },
    },
    async (request) => {
      const body = (await google(range(request.query), await authorized())) as { values?: unknown[][] };
      return (body.values ?? []).map((row) => row.map((cell) => (cell === null ? "" : String(cell))));
    },
  );

  api.post(
    "/api/proxies/google-sheets/write-sheet",
    {
      schema: {
        tags: ["proxies"],
        summary: "Replace the cells of a sheet with these rows",
        querystring: sheetQuery,
        body: rows,
      },
    },
    async (request, reply) => {
      // The original appended below what was there; an export should replace the sheet's content.
      await google(`${range(request.query)}:clear`, await authorized({ method: "POST" }));
      await google(
        `${range(request.query)}?valueInputOption=RAW`,
        await authorized({
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            range: request.query.sheetName,
            majorDimension: "ROWS",
            values: request.body,
          }),
        }),
      );
      return reply.code(204).send();
    },
  );
}
