import http from "node:http";

/**
 * One keep-alive pool for the load generator's requests, with more sockets than the benches keep in
 * flight: at 16, api-crud's 32 requests in flight (BENCH_CONCURRENCY) were 16 on the wire and 16
 * waiting in the pool, their wait counted in the API's latency.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Answer {
  status: number;
  text: string;
  /** Lower-case names, as node:http gives them. */
  headers: http.IncomingHttpHeaders;
}

/**
 * An HTTP request with node:http over a keep-alive agent, the body read as text. The benches'
 * load generator shares the machine's 2 cores with the server it measures: Node 20's fetch cost
 * about 0.5 ms of CPU per request there (node:http about 0.15 ms), which the API's figures paid for.
 */
export function request(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
  pool: http.Agent = agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: pool,
        headers:
          body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
