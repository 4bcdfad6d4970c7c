import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformKinds } from "@orrery/model";
import { client, startTestApp, type TestApp } from "./support/harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("OpenAPI", () => {
  it("serves an OpenAPI 3.1 document generated from the model, without a token", async () => {
    const res = await client(t)("GET", "/api/docs/json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    for (const kind of platformKinds) {
      expect(res.body.paths).toHaveProperty([`/api/${kind.kind}`]);
      expect(res.body.paths).toHaveProperty([`/api/${kind.kind}/{id}`]);
    }
    const create = res.body.paths["/api/context-brokers"].post.requestBody.content["application/json"].schema;
    expect(JSON.stringify(create)).toContain("paginationMaxLimit");
    const read =
      res.body.paths["/api/identity-manager-grants/{id}"].get.responses["200"].content["application/json"]
        .schema;
    expect(JSON.stringify(read)).toContain('"set"');
  });

  it("serves a browsable page", async () => {
    const res = await client(t)("GET", "/api/docs/");
    expect(res.status).toBe(200);
    expect(res.raw).toContain("swagger");
  });
});
