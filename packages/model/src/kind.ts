/**
 * The shape of a resource kind. Each kind is written once (see ./kinds) and the API routes, the
 * validation, the OpenAPI document and the console screens are all derived from it.
 */

import type { ReservedBecause } from "./fields.ts";

/**
 * A condition on other fields: every listed field must equal the given value, be one of the values,
 * or (with `{ present }`) be set or not set.
 */
export type When = Record<string, string | boolean | readonly (string | boolean)[] | { present: boolean }>;

export type FieldInput =
  | {
      input: "text";
      maxLength?: number;
      minLength?: number;
      pattern?: RegExp;
      format?: Format;
      /** Values refused, each with why (names NGSI-LD keeps for itself). */
      reserved?: Readonly<Record<string, ReservedBecause>>;
    }
  | { input: "textarea"; maxLength?: number }
  | { input: "integer"; min?: number; max?: number }
  /** Any finite number, fractions included (a WoT input's minimum). */
  | { input: "number"; min?: number; max?: number }
  | { input: "boolean" }
  | { input: "enum"; options: readonly string[] }
  /** The id of a record of another kind. */
  | { input: "reference"; kind: string; within?: Within }
  /** A list of ids of records of another kind. */
  | { input: "references"; kind: string; within?: Within }
  /** A moment, as whole seconds since the epoch (entered as a date and time). */
  | {
      input: "instant";
      /** The value that means "never" (a role's synchronizationTime is 0 until it is synchronized). */
      never?: number;
    }
  /** Any JSON, shown as an expandable tree (set by the server: a delegation evidence). */
  | { input: "json" }
  /** An absolute http(s) URL. */
  | { input: "url" }
  /** User-supplied SVG markup, sanitised by the server before it is stored. */
  | { input: "markup"; maxLength?: number }
  /** A position [x, y] (data-model chart), set through its own call. */
  | { input: "point" }
  /** A map from HTTP header name to value, edited entry by entry. */
  | { input: "headers" }
  /** A fixed number of single-line strings (iSHARE certificate chain). */
  | { input: "lines"; count: number; pattern?: RegExp; format?: Format }
  /**
   * A list of short strings, each given once, added and removed one by one (a broker client's
   * tenants). With `blank`, the empty string is a value of its own, shown and chosen as the
   * console text of that key ("(default tenant)"); other entries must match `pattern`.
   */
  | {
      input: "strings";
      pattern?: RegExp;
      format?: Format;
      maxLength?: number;
      maxItems?: number;
      blank?: string;
    };

/**
 * The records a reference may name are those whose `via` field equals this record's `field`: the
 * offered properties of a data service are those of its entity type (`{ field: "hasEntityType", via: "hasType" }`).
 */
export interface Within {
  field: string;
  via: string;
}

/** Named formats: the API answers their English message, the console translates `formats.<name>`. */
export const formatMessages = {
  host: "must be a host name or an IP address, without scheme, port or path",
  path: "must be a path starting with /, without spaces",
  did: "must be a decentralised identifier such as did:web:verifier.example.org",
  pem: "must be the key or certificate without its BEGIN/END lines: one line of base64, without line breaks",
  singleLine: "must be a single line",
  dataModelName: "must be 1 to 50 lowercase letters, digits or -",
  ngsiName: "must be letters, digits, - or _",
  accessSubject: "must be one word, without spaces (registries refuse spaces in an access subject)",
} as const;
export type Format = keyof typeof formatMessages;

export type Field = FieldInput & {
  name: string;
  required?: boolean;
  /** The field exists only while this holds; otherwise it is removed from the payload. */
  when?: When;
  /** Value set when the field applies and is absent (switching scheme to https sets false). */
  default?: string | boolean | number;
  /** Write-only: encrypted at rest, read back as `{ set: true }`, kept when an update omits it. */
  secret?: boolean;
  /**
   * A map whose values are write-only (a broker's custom headers: an Authorization or an API key):
   * the names are data, the values encrypted at rest; each is read back as `{ set: true }`, and a
   * write that sends `{ set: true }` for a name keeps its stored value.
   */
  secretValues?: boolean;
  /** Personal data (an identity manager account's user name): read only by those who may change the record. */
  personal?: boolean;
  /** Cannot change after creation (the temporal service type). */
  createOnly?: boolean;
  /** Set by the server only (dataModelVersion, dataModelUpToDate): shown, never accepted from a client. */
  readOnly?: boolean;
  /**
   * Required in the console's form, optional for the API, and kept by an update that leaves it out:
   * the links of a data service, which older clients make one call at a time through their own routes.
   */
  linked?: boolean;
  /**
   * The value is the id of an entity in the workspace's broker, of the type that this reference
   * field of the same record names (a scope entity of the scope type): chosen among them, shown as a link.
   */
  entityOf?: string;
  /** The console's label key when the field's name reads wrong here (a WoT property's `hasProperty` is its property, not a parent). */
  label?: string;
};

export interface KindDefinition {
  /** API path segment and key of the kind: `context-brokers`. */
  kind: string;
  /** NGSI-LD URN type of generated ids: `urn:ngsi-ld:ContextBroker:<uuid>`. */
  urnType: string;
  /** Route-name base of the console: `contextBrokers`. */
  routeName: string;
  scope: "platform" | "workspace";
  /** Shown in the Administration menu only when the trust module is on. */
  trustModule?: boolean;
  fields: readonly Field[];
  /** Columns of the list page after the name. `implementation` stands for name plus version. */
  columns: readonly string[];
  /**
   * What titles a record of this kind that has no name (see ./title.ts): templates of its fields,
   * the first complete one wins; a reference reads as the referenced record's title.
   */
  titledBy?: readonly string[];
  /**
   * Lists show every record, whatever the show permission on each (spec section 6: data services,
   * roles and the other records of the trust and WoT screens check store, update and destroy only).
   */
  listedWhole?: boolean;
  /** The field lists are first sorted by, instead of the title (a routing's operations, by sequence number). */
  orderedBy?: string;
}

export function defineKind<const K extends KindDefinition>(definition: K): K {
  return definition;
}

export function whenHolds(when: When | undefined, data: Record<string, unknown>): boolean {
  if (!when) return true;
  return Object.entries(when).every(([name, expected]) => {
    if (Array.isArray(expected)) return expected.includes(data[name] as never);
    if (typeof expected === "object")
      return (data[name] !== undefined) === (expected as { present: boolean }).present;
    return data[name] === expected;
  });
}

/** The longest text a field takes: its own maxLength, else its input's bound (what the schema checks and a form says). */
export function maxLengthOf(field: Field): number | undefined {
  switch (field.input) {
    case "text":
      return field.maxLength ?? 1_000;
    case "textarea":
      return field.maxLength ?? 10_000;
    case "markup":
      return field.maxLength ?? 100_000;
    case "url":
      return 2_000;
    case "strings":
      return field.maxLength ?? 200;
    default:
      return undefined;
  }
}
