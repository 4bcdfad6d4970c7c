import { badRequest, NgsiLdError } from "./problems.ts";

/**
 * Query-string parameters. Unknown parameters are an error (as in Orion-LD and Stellio), so that a
 * misspelt filter never silently returns everything.
 */
export type Query = Record<string, string | string[] | undefined>;

export function checkParams(query: Query, allowed: readonly string[]): void {
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name)) throw badRequest(`unknown query parameter ${name}`);
  }
}

export function stringParam(query: Query, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) throw badRequest(`query parameter ${name} is given more than once`);
  return v;
}

/** A comma-separated list; empty items are an error. */
export function listParam(query: Query, name: string): string[] | undefined {
  const v = stringParam(query, name);
  if (v === undefined) return undefined;
  const items = v.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) throw badRequest(`query parameter ${name} has an empty item`);
  return items;
}

export function intParam(query: Query, name: string, min: number): number | undefined {
  const v = stringParam(query, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v)))
    throw badRequest(`query parameter ${name} must be an integer of at least ${min}`);
  return Number(v);
}

export function boolParam(query: Query, name: string): boolean {
  const v = stringParam(query, name);
  if (v === undefined || v === "false") return false;
  if (v === "true") return true;
  throw badRequest(`query parameter ${name} must be true or false`);
}

/** A page of results: limit (0 with count only), offset, and whether to count them all. */
export interface Page {
  limit: number;
  offset: number;
  count: boolean;
}

/** limit, offset and count, checked against the broker's default and cap (403 TooManyResults above it). */
export function pageParams(query: Query, broker: { defaultLimit: number; pageSizeCap: number }): Page {
  const count = boolParam(query, "count");
  const limit = intParam(query, "limit", 0) ?? broker.defaultLimit;
  const offset = intParam(query, "offset", 0) ?? 0;
  if (limit > broker.pageSizeCap)
    throw new NgsiLdError(
      "TooManyResults",
      `limit ${limit} is above this broker's maximum page size ${broker.pageSizeCap}`,
    );
  if (limit === 0 && !count) throw badRequest("limit=0 is only allowed together with count=true");
  return { limit, offset, count };
}
