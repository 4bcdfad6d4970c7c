import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from "jose";
import { listen, readBody, sendJson, type Handler } from "./http.ts";

export interface FakeGoogleSheets {
  url: string;
  /** A service-account key file (JSON, as Google issues them) pointing its token_uri at the fake. */
  keyFile: string;
  email: string;
  /** Sheets by `<spreadsheetId>/<sheetName>`: the cells, header row first. */
  sheets: Map<string, string[][]>;
  /** Token requests whose assertion was rejected. */
  refusedAssertions: number;
  close(): Promise<void>;
}

export interface FakeGoogleSheetsOptions {
  /** A loopback port to listen on, for clients configured before the fake starts; default: any free port. */
  port?: number;
  /** Where to write the service-account key file; default: in a new temporary directory. */
  keyFile?: string;
  /**
   * Also serve the sheets to tests in another process, without a token: GET `/_fake/sheets` lists
   * them, GET and PUT `/_fake/sheets/{spreadsheetId}/{sheetName}` read and set one (JSON rows).
   */
  testEndpoint?: boolean;
}

/**
 * A stand-in for Google's token endpoint and the Sheets REST v4 values API: the token endpoint
 * verifies the JWT bearer assertion with the service account's public key (RFC 7523); values are
 * read with GET, cleared with POST `:clear` and written with PUT, only with its access token.
 */
export async function startFakeGoogleSheets(
  options: FakeGoogleSheetsOptions = {},
): Promise<FakeGoogleSheets> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const verifyKey = await importSPKI(await exportSPKI(publicKey), "RS256");
  const email = "orrery@demo-project.iam.gserviceaccount.com";
  const accessToken = `ya29.fake-${Math.random().toString(36).slice(2)}`;
  const sheets = new Map<string, string[][]>();
  const fake = { sheets, email, refusedAssertions: 0 } as FakeGoogleSheets;

  const handler: Handler = async (req, res, url) => {
    if (options.testEndpoint && url.pathname.startsWith("/_fake/sheets")) {
      const test = /^\/_fake\/sheets(?:\/([^/]+)\/([^/]+))?$/.exec(url.pathname);
      if (!test) return sendJson(res, 404, { error: "unknown test path" });
      if (!test[1]) return sendJson(res, 200, [...sheets.keys()]);
      const key = `${decodeURIComponent(test[1])}/${decodeURIComponent(test[2]!)}`;
      if (req.method === "PUT") {
        sheets.set(key, JSON.parse(await readBody(req)) as string[][]);
        return sendJson(res, 200, { sheet: key });
      }
      return sheets.has(key)
        ? sendJson(res, 200, sheets.get(key))
        : sendJson(res, 404, { error: "no sheet" });
    }
    if (req.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams(await readBody(req));
      try {
        if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer")
          throw new Error("grant");
        const { payload } = await jwtVerify(form.get("assertion") ?? "", verifyKey, {
          issuer: email,
          audience: `${server.url}/token`,
        });
        if (payload.scope !== "https://www.googleapis.com/auth/spreadsheets") throw new Error("scope");
      } catch {
        fake.refusedAssertions++;
        return sendJson(res, 400, { error: "invalid_grant" });
      }
      return sendJson(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 3599 });
    }
    const match = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/:]+)(:clear)?$/.exec(url.pathname);
    if (!match)
      return sendJson(res, 404, { error: { code: 404, message: "Requested entity was not found." } });
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return sendJson(res, 401, {
        error: { code: 401, message: "Request had invalid authentication credentials." },
      });
    const key = `${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}`;
    if (!sheets.has(key))
      return sendJson(res, 404, { error: { code: 404, message: `Unable to parse range: ${match[2]}` } });
    if (match[3]) {
      sheets.set(key, []);
      return sendJson(res, 200, { clearedRange: match[2] });
    }
    if (req.method === "PUT") {
      if (url.searchParams.get("valueInputOption") !== "RAW")
        return sendJson(res, 400, { error: { code: 400, message: "valueInputOption" } });
      const body = JSON.parse(await readBody(req)) as { values: string[][] };
      sheets.set(key, body.values);
      return sendJson(res, 200, { updatedRows: body.values.length });
    }
    const values = sheets.get(key)!;
    return sendJson(res, 200, {
      range: match[2],
      majorDimension: "ROWS",
      ...(values.length ? { values } : {}),
    });
  };
  const server = await listen(handler, options.port);

  if (options.keyFile) mkdirSync(dirname(options.keyFile), { recursive: true });
  fake.keyFile =
    options.keyFile ?? join(mkdtempSync(join(tmpdir(), "orrery-google-")), "service-account.json");
  writeFileSync(
    fake.keyFile,
    JSON.stringify({
      type: "service_account",
      client_email: email,
      private_key: await exportPKCS8(privateKey),
      token_uri: `${server.url}/token`,
    }),
  );
  fake.url = server.url;
  fake.close = server.close;
  return fake;
}
