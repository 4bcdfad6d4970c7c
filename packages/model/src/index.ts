export * from "./kind.ts";
export * from "./schema.ts";
export * from "./permissions.ts";
export * from "./kinds/index.ts";
export { apiPath, itemPath, newId } from "./paths.ts";
