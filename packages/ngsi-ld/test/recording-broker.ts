import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the fake received it. */
export interface Recorded {
  method: string;
  /** Path without the query, percent-decoding left as sent. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  contentType?: string;
}

export interface Canned {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless a string. */
  body?: unknown;
  /** Send the status, headers and the start of the body, then never finish. */
  stall?: boolean;
}

/** Answers a request: a canned response, or "hang" to never answer. */
export type Responder = (req: Recorded) => Canned | "hang";

/**
 * A recording fake NGSI-LD broker: an in-process node:http server on a free 127.0.0.1 port that
 * records every request and answers what the test's responder says (200 [] by default).
 */
export class RecordingBroker {
  readonly requests: Recorded[] = [];
  private responder: Responder = () => ({ status: 200, body: [] });
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();
  url = "";

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        const url = new URL(req.url ?? "/", "http://fake");
        const recorded: Recorded = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body,
          contentType: req.headers["content-type"],
        };
        this.requests.push(recorded);
        const answer = this.responder(recorded);
        if (answer === "hang") {
          this.hanging.add(res);
          return;
        }
        const status = answer.status ?? 200;
        const payload =
          answer.body === undefined
            ? ""
            : typeof answer.body === "string"
              ? answer.body
              : JSON.stringify(answer.body);
        res.writeHead(status, {
          ...(payload && typeof answer.body !== "string" ? { "content-type": "application/json" } : {}),
          ...answer.headers,
        });
        if (answer.stall) {
          this.hanging.add(res);
          res.write(payload.slice(0, 1));
          return;
        }
        res.end(payload);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Sets how the next requests are answered and forgets what was recorded. */
  answer(responder: Responder): void {
    this.responder = responder;
    this.requests.length = 0;
  }

  get last(): Recorded {
    const r = this.requests.at(-1);
    if (!r) throw new Error("the fake broker received no request");
    return r;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
