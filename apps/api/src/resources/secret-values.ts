import type { Cipher } from "../cipher.ts";
import { fieldError, type FieldError } from "../problems.ts";

/**
 * A map whose values are secrets (a context broker's custom headers; model: `secretValues`). The
 * record keeps the names as data, each `{ set: true }` (so a read shows them so, and the audit trail
 * the names a change added or removed), and the values as one encrypted JSON object in its secrets.
 */
type Values = Record<string, string>;
const kept = (value: unknown) =>
  !!value && typeof value === "object" && (value as { set?: unknown }).set === true;

/** Migration 0021 moved values stored before as they were; sealed at start (Records.sealPlainValues). */
export const PLAIN = "plain:";

/** The stored values in clear, for the server's own calls (never for a client). */
export function openValues(cipher: Cipher, stored: string | undefined): Values {
  if (stored === undefined) return {};
  const text = stored.startsWith(PLAIN) ? stored.slice(PLAIN.length) : cipher.decrypt(stored);
  return JSON.parse(text) as Values;
}

const sameValues = (a: Values, b: Values) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * What a write of the map stores: the names, and the values sealed (the stored ciphertext itself
 * when they did not change, so that the trail says "changed" only when one did). A name sent as
 * `{ set: true }` keeps its stored value; one that has none is refused. A map left out or empty
 * stores nothing (the spec's console drops the map when it is emptied).
 */
export function writeValues(
  cipher: Cipher,
  field: string,
  input: unknown,
  stored: string | undefined,
): { names?: Record<string, { set: true }>; sealed?: string; errors: FieldError[] } {
  if (!input || typeof input !== "object" || Object.keys(input).length === 0) return { errors: [] };
  const before = openValues(cipher, stored);
  const values: Values = {};
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (typeof value === "string") values[name] = value;
    else if (kept(value) && before[name] !== undefined) values[name] = before[name];
    else errors.push(fieldError(`${field}.${name}`, "field.secretValueNotSet", { name }));
  }
  const names = Object.fromEntries(Object.keys(values).map((n) => [n, { set: true as const }]));
  const unchanged = stored !== undefined && !stored.startsWith(PLAIN) && sameValues(values, before);
  return { names, sealed: unchanged ? stored : cipher.encrypt(JSON.stringify(values)), errors };
}
