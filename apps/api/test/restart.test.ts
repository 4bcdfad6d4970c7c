import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { client, driver, startTestApp } from "./support/harness.ts";
import { samplePayload } from "../../../test/samples/platform.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe.runIf(driver === "pglite")("PGlite on disk", () => {
  it("keeps records and secrets across a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "orrery-restart-"));
    try {
      const first = await startTestApp({}, { dataDir });
      const api = client(first, await first.tokenFor("admin"));
      const idm = (
        await api(
          "POST",
          "/api/identity-managers",
          samplePayload("identity-managers", () => ""),
        )
      ).body;
      const created = (
        await api(
          "POST",
          "/api/identity-manager-grants",
          samplePayload("identity-manager-grants", () => idm.id),
        )
      ).body;
      await first.close();

      const second = await startTestApp({}, { dataDir });
      const shown = await client(second, await second.tokenFor("admin"))(
        "GET",
        `/api/identity-manager-grants/${created.id}`,
      );
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(created);
      const { identityManagerGrants } = await import("@orrery/model");
      expect(await second.records.secret(identityManagerGrants, created.id, "password")).toBe(
        "p4ssw0rd-alice",
      );
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
