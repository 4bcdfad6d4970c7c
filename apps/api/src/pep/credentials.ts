import type { IncomingHttpHeaders } from "node:http";

/**
 * The credential of a request to the embedded broker: `Authorization: Bearer <token>`, or the FIWARE
 * PEPs' `X-Auth-Token: <token>` (Wilma, Kong). Both may be sent when they carry the same token. A
 * header that is not one token, or two different tokens, is malformed: the request is refused rather
 * than guessing which one counts.
 */
export function credentialOf(headers: IncomingHttpHeaders): { token?: string; malformed?: boolean } {
  const tokens: string[] = [];
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const bearer = /^Bearer +([^\s,]+)$/i.exec(authorization.trim());
    if (!bearer) return { malformed: true };
    tokens.push(bearer[1]!);
  }
  const xAuth = headers["x-auth-token"];
  if (xAuth !== undefined) {
    const value = [xAuth].flat().join(",").trim();
    if (!/^[^\s,]+$/.test(value)) return { malformed: true };
    tokens.push(value);
  }
  if (tokens.length === 2 && tokens[0] !== tokens[1]) return { malformed: true };
  return tokens.length ? { token: tokens[0] } : {};
}
