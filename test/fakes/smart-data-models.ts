import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, resolve } from "node:path";

/** The fixtures beside the project (tests may read ../shared in place; the product never does). */
export const smartDataModelsFixtures = resolve(
  import.meta.dirname,
  "../../../shared/fixtures/smart-data-models",
);

/**
 * A stand-in for the Smart Data Models hosts: serves `<Model>/model.yaml` and the rest of the
 * fixtures over HTTP on 127.0.0.1, plus `/slow/...` (never answers) and `/huge.yaml` for the
 * proxy's limits.
 */
export async function startFakeSmartDataModels(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    if (path.startsWith("/slow/")) return; // let the client time out
    if (path === "/huge.yaml") {
      res.writeHead(200, { "content-type": "application/yaml" });
      res.end("x: " + "a".repeat(3 * 1024 * 1024));
      return;
    }
    if (path === "/redirect.yaml") {
      res.writeHead(302, { location: "/AirQualityObserved/model.yaml" });
      res.end();
      return;
    }
    const file = normalize(join(smartDataModelsFixtures, path));
    if (!file.startsWith(smartDataModelsFixtures)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": file.endsWith(".yaml") ? "application/yaml" : "application/json",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("404: Not Found");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
