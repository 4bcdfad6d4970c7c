import { describe, expect, it } from "vitest";
import { apiPath, kindsByName } from "@orrery/model";
import { routesWithEvents } from "../src/audit/routes.ts";
import { driver, useTestApp } from "./support/harness.ts";

const ctx = useTestApp();

/**
 * The write routes that write through the record layer (`records.as(session)`), which records each
 * change in the change's own transaction, besides the kinds' own create, update and delete.
 */
const throughRecords = [
  "POST /api/workspace/:workspaceId/properties/import",
  "POST /api/workspace/:workspaceId/data-model/auto-discover",
  "POST /api/workspace/:workspaceId/data-service-actions",
  "DELETE /api/workspace/:workspaceId/data-service-actions/:id",
  "POST /api/workspace/:workspaceId/data-service-properties",
  "DELETE /api/workspace/:workspaceId/data-service-properties/:id",
  "POST /api/broker-clients/:id/key",
  "POST /api/broker-clients/:id/revoke",
];

/** Write routes that change nothing anyone would look for in the trail, each with its reason. */
const notRecorded: Record<string, string> = {
  // Sign-in: the session and its signIn event are written in one transaction (auth/sessions).
  "POST /api/auth/dev-token": "sign-in, recorded with its session",
  // A broker's notification to the live channel, on a secret address: no user, nothing stored.
  "POST /api/live/notify/:secret": "a broker's notification, passed on to the screens",
  "POST /api/workspace/:workspaceId/odrl-policies/validate": "checks a policy, stores nothing",
  "POST /api/proxies/authorization-registry/request-delegation": "asks a registry a question (a read)",
  "POST /api/health/components": "runs connection checks, keeps their results only",
  "POST /api/health/:kind/:id": "runs a connection check, keeps its result only",
  "POST /api/siop2/states": "a login state for a SIOP-2 wallet, swept after minutes",
  "PUT /api/workspace/:workspaceId/types/:id/position-in-chart": "where a node stands on the chart (layout)",
};

describe(`every write route is in the audit trail (${driver})`, () => {
  it("records each POST, PUT, PATCH and DELETE under /api, or says why not", () => {
    const kindRoutes = new Set(
      [...kindsByName.values()].flatMap((kind) => {
        const path = `/api${apiPath(kind, ":workspaceId")}`;
        return [`POST ${path}`, `PUT ${path}/:id`, `DELETE ${path}/:id`];
      }),
    );
    const writes = ctx.t.routes
      .filter((r) => r.url.startsWith("/api") && ["POST", "PUT", "PATCH", "DELETE"].includes(r.method))
      .map((r) => `${r.method} ${r.url}`);
    expect(writes.length).toBeGreaterThan(100);
    const unrecorded = writes.filter(
      (route) =>
        !routesWithEvents.has(route) &&
        !kindRoutes.has(route) &&
        !throughRecords.includes(route) &&
        !(route in notRecorded),
    );
    expect(unrecorded).toEqual([]);
    // The lists name only routes that exist: a route renamed is checked again.
    for (const route of [...throughRecords, ...Object.keys(notRecorded)]) expect(writes).toContain(route);
  });
});
