import { describe, expect, it } from "vitest";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

describe(`the audit trail's bounds (${driver})`, () => {
  it("answers a time range in year 0000 with 400 and a sentence, in English and in French", async () => {
    for (const bad of [
      "from=0000-01-01T00:00:00Z",
      "to=0000-06-15T12:00:00.000Z",
      // Year 1 in its zone, year 0000 in UTC.
      "from=0001-01-01T00:30:00%2B01:00",
    ]) {
      const res = await ctx.api("GET", `/api/audit?${bad}`);
      expect(res.status, `${bad}: ${res.raw}`).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(res.body)).toMatch(/year 0001/);
      const fr = await ctx.api("GET", `/api/audit?${bad}`, undefined, { "accept-language": "fr" });
      expect(fr.status).toBe(400);
      expect(JSON.stringify(fr.body)).toMatch(/l’an 0001/);
    }
    expect(
      (await ctx.api("GET", "/api/audit?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z")).status,
    ).toBe(200);
  });
});
