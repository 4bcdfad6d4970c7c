import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json?: Record<string, unknown>;
}

/**
 * Writes one HTTP/1.1 request to the socket exactly as given (request target, headers, body), so
 * that a test can send what a client library would refuse or normalise: absolute-form targets,
 * percent-encoded or dotted paths, bytes no URL parser keeps.
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const body = options.body ?? "";
  const headers = {
    host: `127.0.0.1:${port}`,
    connection: "close",
    ...(body
      ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
      : {}),
    ...options.headers,
  };
  const head = [`${method} ${target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head.join("\r\n")}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
      const answer: RawAnswer = {
        status: Number(statusLine.split(" ")[1]),
        headers: Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
        ),
        body: text.slice(split + 4),
      };
      try {
        answer.json = JSON.parse(answer.body);
      } catch {
        // not JSON (chunked or empty): the test reads body
      }
      resolve(answer);
    });
  });
}
