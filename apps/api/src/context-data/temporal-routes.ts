import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { properties } from "@orrery/model";
import { rowToEntity, type ColumnSpec, type NgsiLdClient } from "@orrery/ngsi-ld";
import type { ImportReport } from "@orrery/model";
import type { Config } from "../config.ts";
import { languageOf, say, type Language, type MessageCode, type Params } from "../messages/say.ts";
import { fieldError, invalid, notFound, Problem, problemBody } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { brokerProblem, temporalBroker, viaBroker, workspaceContextUrl } from "./broker-access.ts";
import { jsonRows, parseCsv, type ImportRow } from "./entity-table.ts";
import { workspaceData } from "./workspace-data.ts";

const params = z.object({
  workspaceId: z.string(),
  entityId: z.string().min(1),
  propertyId: z.string().min(1),
  temporalServiceId: z.string().min(1),
});
const seconds = z.coerce.number().int().min(0);

/** Unix seconds as the NGSI-LD date-time the original sent: YYYY-MM-DDTHH:MM:SSZ. */
const isoSeconds = (s: number) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
const unix = (iso: string | undefined) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);

/**
 * The history of one attribute of one entity, from the broker's temporal API or from Mintaka,
 * per the temporal service's type. Answers the original's shape: {id, name, fromTime, toTime, data}.
 */
export function registerTemporalRoutes(app: FastifyInstance, records: Records, config: Config): void {
  registerTemporalWriteRoutes(app, records, config);
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/workspace/:workspaceId/temporal-entities/:entityId/properties/:propertyId/temporal-services/:temporalServiceId",
    {
      schema: {
        tags: ["temporal"],
        summary: "The values an entity's attribute took between two times",
        params,
        querystring: z.object({ fromTime: seconds.optional(), toTime: seconds.optional() }),
        response: {
          200: z.object({
            id: z.string(),
            name: z.string(),
            fromTime: z.number().nullable(),
            toTime: z.number().nullable(),
            data: z.array(z.record(z.string(), z.unknown())),
          }),
        },
      },
    },
    async (request) => {
      const { workspaceId, entityId, propertyId, temporalServiceId } = request.params;
      const { fromTime, toTime } = request.query;
      const workspace = await records.requireWorkspace(workspaceId);
      const property = await records.find(properties, propertyId, workspaceId);
      if (!property) throw notFound(propertyId, "property");
      const name = String(property.data.name);
      const context = workspaceContextUrl(config, workspace);
      const timerel =
        fromTime !== undefined && toTime !== undefined
          ? { timerel: "between" as const, timeAt: isoSeconds(fromTime), endTimeAt: isoSeconds(toTime) }
          : fromTime !== undefined
            ? { timerel: "after" as const, timeAt: isoSeconds(fromTime) }
            : toTime !== undefined
              ? { timerel: "before" as const, timeAt: isoSeconds(toTime) }
              : {};
      const { entity, contentRange } = await viaBroker(async () => {
        const client = await temporalBroker(records, workspace, temporalServiceId, context);
        // sysAttrs: a value written without observedAt (a WoT action, an API write) is dated by
        // its modifiedAt and createdAt, which the console shows in their place.
        return client.temporalEntity(entityId, { attrs: [name], ...timerel, options: "sysAttrs" });
      });
      const values = entity[name];
      const data = (values === undefined ? [] : [values].flat()) as Array<Record<string, unknown>>;
      return {
        id: entityId,
        name,
        fromTime: contentRange ? unix(contentRange.from) : (fromTime ?? null),
        toTime: contentRange ? unix(contentRange.to) : (toTime ?? null),
        data,
      };
    },
  );
}

const instanceParams = z.object({
  workspaceId: z.string(),
  entityId: z.string().min(1),
  propertyId: z.string().min(1),
});
const oneInstanceParams = instanceParams.extend({ instanceId: z.string().min(1) });
const importLimit = 64 * 1024 * 1024;
/** Instances per write: one request of the temporal API takes many (see bench/broker.ts). */
const CHUNK = 1000;
const importReport = z.object({
  total: z.number(),
  created: z.number(),
  updated: z.number(),
  rejected: z.array(z.object({ row: z.number(), id: z.string().optional(), reason: z.string() })),
});

/** An ISO 8601 date-time; without a zone it is read as UTC, as the temporal view shows times. */
function isoTime(text: string): string | undefined {
  const t = text.trim().replace(" ", "T");
  const m = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (!m) return undefined;
  const ms = Date.parse(m[3] ? t : `${t}Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A history row's cells: time, value, unit (the CSV columns, any case). */
interface Cells {
  time?: string;
  value?: string;
  unit?: string;
}
type Cast = { instance: Record<string, unknown> } | { field: keyof Cells; code: MessageCode; params: Params };

/**
 * One row of history as an attribute instance of the property: the time as its observedAt, the
 * value read as the entity import reads a cell of that property, the unit as its unitCode. With
 * `partial` (a correction) each part is optional.
 */
function instanceOf(column: ColumnSpec, cells: Cells, partial = false): Cast {
  const out: Record<string, unknown> = {};
  const time = (cells.time ?? "").trim();
  if (time) {
    const iso = isoTime(time);
    if (!iso)
      return { field: "time", code: "row.observedAt", params: { value: JSON.stringify(time.slice(0, 60)) } };
    out.observedAt = iso;
  } else if (!partial) return { field: "time", code: "row.noTime", params: {} };
  const value = cells.value ?? "";
  if (value.trim() !== "") {
    const cast = rowToEntity({ type: "History", [column.name]: value }, "History", [column]);
    if ("reason" in cast)
      return { field: "value", code: `row.${cast.reason.code}` as MessageCode, params: cast.reason.params };
    Object.assign(out, cast.entity[column.name]);
  } else if (!partial) return { field: "value", code: "row.noValue", params: {} };
  const unit = (cells.unit ?? "").trim();
  if (unit) out.unitCode = unit;
  if (Object.keys(out).length === 0) return { field: "value", code: "row.noValue", params: {} };
  return { instance: out };
}

/** The cells of an import row whatever the case of its headers. */
const cellsOf = (row: ImportRow): Cells =>
  Object.fromEntries(Object.entries(row.cells).map(([k, v]) => [k.toLowerCase(), v])) as Cells;

/**
 * Adds history rows to the broker, CHUNK instances per temporal write. A bad row is rejected
 * with its reason; a chunk the broker refuses rejects its rows with the broker's reason.
 */
async function importHistory(
  client: NgsiLdClient,
  entityId: string,
  column: ColumnSpec,
  rows: ImportRow[],
  options: { dryRun: boolean; language: Language },
): Promise<ImportReport> {
  const report: ImportReport = { total: rows.length, created: 0, updated: 0, rejected: [] };
  const accepted: Array<{ row: number; instance: Record<string, unknown> }> = [];
  for (const row of rows) {
    const cast = instanceOf(column, cellsOf(row));
    if ("instance" in cast) accepted.push({ row: row.row, instance: cast.instance });
    else report.rejected.push({ row: row.row, reason: say(options.language, cast.code, cast.params) });
  }
  for (let start = 0; start < accepted.length; start += CHUNK) {
    const chunk = accepted.slice(start, start + CHUNK);
    if (!options.dryRun) {
      try {
        await client.appendTemporalInstances(entityId, { [column.name]: chunk.map((c) => c.instance) });
      } catch (err) {
        const failure = brokerProblem(err);
        if (!(failure instanceof Problem) || failure.status !== 400) throw failure;
        const reason = problemBody(failure, options.language).detail ?? failure.message;
        for (const c of chunk) report.rejected.push({ row: c.row, reason: String(reason) });
        continue;
      }
    }
    report.created += chunk.length;
  }
  report.rejected.sort((a, b) => a.row - b.row);
  return report;
}

/**
 * Writes to one attribute's history (issue 27): add an instance, correct one (value, time, unit),
 * delete one, and import rows of time, value, unit from a CSV file. Always the workspace's broker
 * and its temporal API: a Mintaka only reads what the broker records.
 */
export function registerTemporalWriteRoutes(app: FastifyInstance, records: Records, config: Config): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const base = "/api/workspace/:workspaceId/temporal-entities/:entityId/properties/:propertyId/instances";
  async function target(request: FastifyRequest, params: z.infer<typeof instanceParams>) {
    const data = await workspaceData(records, config, params.workspaceId, request);
    const property = await records.find(properties, params.propertyId, params.workspaceId);
    if (!property) throw notFound(params.propertyId, "property");
    const column: ColumnSpec = {
      name: String(property.data.name),
      ngsiLdType: (property.data.ngsiLdType as ColumnSpec["ngsiLdType"] | undefined) ?? "Property",
      ...(property.data.propertyNgsiLdValueType
        ? { valueType: property.data.propertyNgsiLdValueType as ColumnSpec["valueType"] }
        : {}),
    };
    return { column, broker: () => viaBroker(() => data.broker()) };
  }
  const cast = (column: ColumnSpec, cells: Cells, partial = false) => {
    const result = instanceOf(column, cells, partial);
    if ("instance" in result) return result.instance;
    throw invalid([fieldError(result.field, result.code, result.params)]);
  };
  const cells = z.object({
    time: z.string().optional(),
    value: z.string().optional(),
    unit: z.string().optional(),
  });

  api.post(
    base,
    {
      schema: {
        tags: ["temporal"],
        summary: "Add a value to an attribute's history",
        params: instanceParams,
        body: cells,
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      const { column, broker } = await target(request, request.params);
      const instance = cast(column, request.body);
      const client = await broker();
      await viaBroker(() =>
        client.appendTemporalInstances(request.params.entityId, { [column.name]: [instance] }),
      );
      return reply.code(204).send();
    },
  );

  api.patch(
    `${base}/:instanceId`,
    {
      schema: {
        tags: ["temporal"],
        summary: "Correct a value of an attribute's history (value, time, unit); it keeps its instanceId",
        params: oneInstanceParams,
        body: cells,
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      const { entityId, instanceId } = request.params;
      const { column, broker } = await target(request, request.params);
      const fragment = cast(column, request.body, true);
      const client = await broker();
      await viaBroker(() => client.modifyTemporalInstance(entityId, column.name, instanceId, fragment));
      return reply.code(204).send();
    },
  );

  api.delete(
    `${base}/:instanceId`,
    {
      schema: {
        tags: ["temporal"],
        summary: "Delete a value of an attribute's history",
        params: oneInstanceParams,
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      const { entityId, instanceId } = request.params;
      const { column, broker } = await target(request, request.params);
      const client = await broker();
      await viaBroker(() => client.deleteTemporalInstance(entityId, column.name, instanceId));
      return reply.code(204).send();
    },
  );

  api.post(
    `${base}/import`,
    {
      bodyLimit: importLimit,
      schema: {
        tags: ["temporal"],
        summary:
          "Add an attribute's history from CSV rows (time, value, optional unit), with a per-row report",
        description:
          "Body: the CSV file (text/csv, header row time,value[,unit]) or an array of objects keyed by column " +
          "(application/json). Times are ISO 8601; without a zone, UTC.",
        params: instanceParams,
        querystring: z.object({ dryRun: z.enum(["true", "false"]).optional() }),
        body: z.union([z.string(), z.array(z.unknown())]),
        response: { 200: importReport },
      },
    },
    async (request) => {
      const { column, broker } = await target(request, request.params);
      const body = request.body;
      const rows = typeof body === "string" ? parseCsv(body) : jsonRows(body);
      if (!rows.length) throw invalid([fieldError("", "import.noRows")]);
      const client = await broker();
      return viaBroker(() =>
        importHistory(client, request.params.entityId, column, rows, {
          dryRun: request.query.dryRun === "true",
          language: languageOf(request.headers["accept-language"]),
        }),
      );
    },
  );
}
