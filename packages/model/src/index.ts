// Zod-free: the console's first screen imports this. The zod schemas are at "@orrery/model/schema".
export * from "./kind.ts";
export * from "./rules.ts";
export * from "./permissions.ts";
export * from "./kinds/index.ts";
export { apiPath, itemPath, newId } from "./paths.ts";
export type { ImportReport } from "./import-report.ts";
export * from "./attribute-kinds.ts";
export { reservedAttributeNames } from "./fields.ts";
export { hostileValue, maxJsonDepth, type HostileFlaw } from "./hostile-input.ts";
export * from "./title.ts";
export * from "./audit.ts";
export * from "./live-channels.ts";
export { csvExportOptions, csvFormula, fromCsvCell } from "./csv-formulas.ts";
