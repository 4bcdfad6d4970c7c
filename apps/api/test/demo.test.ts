import { describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { loadDemoData } from "../src/demo/demo-data.ts";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

describe(`demo data (${driver})`, () => {
  it("loads a small consistent platform once, and never again", async () => {
    const { t } = ctx;
    expect(await loadDemoData(t.storage.db, t.records, t.config)).toBe(true);
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          platformKinds.map(async (k) => [k.kind, (await ctx.api("GET", `/api/${k.kind}`)).body.length]),
        ),
      );
    const first = await counts();
    expect(first).toMatchObject({
      "context-brokers": 1,
      services: 2,
      "temporal-services": 1,
      "identity-managers": 1,
      "identity-manager-grants": 1,
    });

    const broker = (await ctx.api("GET", "/api/context-brokers")).body[0];
    expect(broker).toMatchObject({ name: "Embedded broker", host: new URL(t.config.publicUrl).hostname });
    await ctx.api("DELETE", `/api/data-actions/${(await ctx.api("GET", "/api/data-actions")).body[0].id}`);

    expect(await loadDemoData(t.storage.db, t.records, t.config)).toBe(false);
    expect(await counts()).toEqual({ ...first, "data-actions": first["data-actions"] - 1 });
  });
});
