import { PassThrough, Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { entityToRow, type Entity } from "@orrery/ngsi-ld";
import type { Config } from "../config.ts";
import { languageOf } from "../messages/say.ts";
import { fieldError, invalid, Problem, problem, problemBody } from "../problems.ts";
import type { Records } from "../resources/records.ts";
import { brokerProblem, listOrEmpty, viaBroker } from "./broker-access.ts";
import { columnsOf, csvLines, importRows, jsonRows, parseCsv, type ImportRow } from "./entity-table.ts";
import type { OwnBroker } from "./own-broker.ts";
import { workspaceData } from "./workspace-data.ts";

const workspaceParams = z.object({ workspaceId: z.string() });
const importLimit = 64 * 1024 * 1024;
const report = z.object({
  total: z.number(),
  created: z.number(),
  updated: z.number(),
  rejected: z.array(z.object({ row: z.number(), id: z.string().optional(), reason: z.string() })),
  preview: z
    .array(z.object({ row: z.number(), id: z.string(), action: z.enum(["create", "update"]) }))
    .optional(),
});

/** A file name that survives a Content-Disposition header. */
const fileName = (name: string) => `${name.replace(/["\\/\r\n]/g, "_")}.csv`;

/**
 * CSV import and export of one type's entities. Import takes the file as is (text/csv) or parsed
 * rows (JSON) and answers a per-row report, streamed as NDJSON progress lines when asked; export
 * streams every entity of the type: from the embedded broker in-process, a chunk at a time as the
 * client reads (236 s for a million over loopback HTTP, 1,000 a page), or page by page from any
 * other broker over NGSI-LD.
 */
export function registerImportExportRoutes(
  app: FastifyInstance,
  records: Records,
  config: Config,
  own: OwnBroker = {},
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser(
    ["text/csv", "text/plain"],
    { parseAs: "string", bodyLimit: importLimit },
    (_r, body, done) => done(null, body),
  );

  api.post(
    "/api/workspace/:workspaceId/entities/import",
    {
      bodyLimit: importLimit,
      schema: {
        tags: ["entities"],
        summary: "Create or update entities of a type from CSV rows, with a per-row report",
        description:
          "Body: the CSV file (text/csv, header row) or an array of objects keyed by column (application/json). " +
          "With Accept: application/x-ndjson the answer streams {progress} lines, then {report}.",
        params: workspaceParams,
        querystring: z.object({ typeId: z.string(), dryRun: z.enum(["true", "false"]).optional() }),
        body: z.union([z.string(), z.array(z.unknown())]),
        response: { 200: report },
      },
    },
    async (request, reply) => {
      const data = await workspaceData(records, config, request.params.workspaceId, request);
      const type = await data.typeById(request.query.typeId);
      const { properties: propertyList } = await data.dataModel();
      const body = request.body;
      const rows: ImportRow[] = typeof body === "string" ? parseCsv(body) : jsonRows(body);
      if (!rows.length) throw invalid([fieldError("", "import.noRows")]);
      const client = await viaBroker(() => data.broker());
      const tenant = own.reader ? await data.ownBrokerTenant() : undefined;
      const reader = own.reader;
      const run = (onProgress?: (done: number, total: number) => void) =>
        importRows(client, String(type.name), columnsOf(type, propertyList), rows, {
          dryRun: request.query.dryRun === "true",
          language: languageOf(request.headers["accept-language"]),
          onProgress,
          // The embedded broker says which ids exist in one query, not 10 requests of 50 ids a chunk.
          ...(reader && tenant !== undefined
            ? {
                existing: (ids: string[]) =>
                  reader.existing({ tenant, type: String(type.name), context: data.context, ids }),
              }
            : {}),
        });
      if (!String(request.headers.accept ?? "").includes("application/x-ndjson"))
        return viaBroker(() => run());
      const stream = new PassThrough();
      const line = (value: unknown) => stream.write(`${JSON.stringify(value)}\n`);
      run((done, total) => line({ progress: { done, total } }))
        .then((result) => line({ report: result }))
        .catch((err: unknown) => {
          const failure = brokerProblem(err);
          request.log.warn({ err }, "entity import failed");
          const said = failure instanceof Problem ? failure : problem(500, "server.failed");
          const { status, title, detail, code } = problemBody(
            said,
            languageOf(request.headers["accept-language"]),
          );
          line({ error: { status, title, detail, code } });
        })
        .finally(() => stream.end());
      // The 200 schema documents the plain answer; the NDJSON stream carries the same report last.
      return reply.type("application/x-ndjson").send(stream as never);
    },
  );

  api.get(
    "/api/workspace/:workspaceId/entities/export",
    {
      schema: {
        tags: ["entities"],
        summary: "Every entity of a type as CSV (or rows for a spreadsheet)",
        params: workspaceParams,
        querystring: z.object({
          typeId: z.string(),
          bom: z.enum(["true", "false"]).optional(),
          format: z.enum(["csv", "rows"]).default("csv"),
        }),
      },
    },
    async (request, reply) => {
      const data = await workspaceData(records, config, request.params.workspaceId, request);
      const type = await data.typeById(request.query.typeId);
      const columns = columnsOf(type, (await data.dataModel()).properties);
      const header = ["id", "type", ...columns.map((c) => c.name)];
      const client = await viaBroker(() => data.broker());
      const tenant = own.reader ? await data.ownBrokerTenant() : undefined;
      const local =
        tenant !== undefined
          ? await own.reader!.entitiesOfType({
              tenant,
              type: String(type.name),
              context: data.context,
              // Only what the columns show is rendered.
              attrs: columns.map((c) => c.name),
            })
          : undefined;
      // Every entity: the client's default stops at 1,000,000, and a city's type may hold more.
      const pages: AsyncGenerator<Entity[]> =
        (local as AsyncGenerator<Entity[]> | undefined) ??
        client.entityPages({ type: String(type.name) }, { max: Number.POSITIVE_INFINITY });
      // The first page before any byte is sent: a broker that fails answers a problem, not half a file.
      // A tenant never written to (404 from the broker) holds no entity: the file is its header.
      const first = await viaBroker(() =>
        listOrEmpty(() => pages.next(), { done: true, value: undefined } as IteratorResult<Entity[]>),
      );
      /** Each page's rows; the broker reads the next page while this one is used. */
      async function* pageRows() {
        for (let page = first; !page.done;) {
          const next = pages.next();
          next.catch(() => {}); // a reader gone mid-export must not leave an unhandled rejection
          yield page.value.map((e) => entityToRow(e, columns));
          page = await next;
        }
      }
      if (request.query.format === "rows") {
        const rows = [header];
        await viaBroker(async () => {
          for await (const pageOfRows of pageRows()) rows.push(...pageOfRows);
        });
        return rows;
      }
      async function* csv() {
        yield `${request.query.bom === "true" ? "\ufeff" : ""}${csvLines([header])}`;
        for await (const pageOfRows of pageRows()) yield csvLines(pageOfRows);
      }
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${fileName(String(type.name))}"`)
        .send(Readable.from(csv()));
    },
  );
}
