import type { Field } from "./kind.ts";

/** Reusable field definitions shared by several kinds (the same rule must not be written twice). */

const singleLine = /^[^\r\n]*$/;
export const noPemLines = /^(?!.*-----(BEGIN|END))[^\r\n]+$/;

export const name: Field = { name: "name", input: "text", required: true, maxLength: 100 };
export const description: Field = { name: "description", input: "textarea", maxLength: 10_000 };

export const scheme: Field = { name: "scheme", input: "enum", options: ["http", "https"], required: true };
export const disableCertificateVerification: Field = {
  name: "disableCertificateVerification",
  input: "boolean",
  when: { scheme: "https" },
  default: false,
};
export const host: Field = {
  name: "host",
  input: "text",
  required: true,
  maxLength: 253,
  pattern:
    /^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$|^\[[0-9A-Fa-f:.]+\]$/,
  format: "host",
};
export const port: Field = { name: "port", input: "integer", required: true, min: 0, max: 65_535 };

export function urlPath(fieldName: string, required = false): Field {
  return {
    name: fieldName,
    input: "text",
    required,
    maxLength: 2_000,
    pattern: /^\/[^\s]*$/,
    format: "path",
  };
}

/** scheme, certificate check, host, port and path: the network address of a peer. */
export const address: readonly Field[] = [
  scheme,
  disableCertificateVerification,
  host,
  port,
  urlPath("path"),
];

export function implementation(options: readonly string[]): readonly Field[] {
  return [
    {
      name: "implementationName",
      input: "enum",
      options,
      required: true,
      default: options.length === 1 ? options[0] : undefined,
    },
    {
      name: "implementationVersion",
      input: "text",
      required: true,
      maxLength: 50,
      pattern: singleLine,
      format: "singleLine",
    },
  ];
}

export function reference(fieldName: string, kind: string, extra: Partial<Field> = {}): Field {
  return { name: fieldName, input: "reference", kind, ...extra } as Field;
}

/** iSHARE party identifier and its certificate chain (registry and registry grant). */
export const identity: readonly Field[] = [
  {
    name: "identifier",
    input: "text",
    required: true,
    maxLength: 200,
    pattern: singleLine,
    format: "singleLine",
  },
  {
    name: "certificates",
    input: "lines",
    count: 3,
    required: true,
    pattern: noPemLines,
    format: "pem",
  },
];

/** Names of types and properties: they become JSON-LD terms and NGSI-LD attribute names. */
export const ngsiName: Field = {
  name: "name",
  input: "text",
  required: true,
  maxLength: 100,
  pattern: /^[A-Za-z0-9_-]+$/,
  format: "ngsiName",
};

/**
 * A tenant of a multi-tenant broker (NGSILD-Tenant): a workspace's, and those a broker client may
 * reach. The header's value becomes part of the embedded broker's storage keys: letters, digits, - and _.
 */
export const tenantName = /^[A-Za-z0-9_-]+$/;

/** Why NGSI-LD keeps a member name for itself. */
export type ReservedBecause = "entity" | "attribute" | "system" | "temporal" | "notification";

/**
 * The members NGSI-LD gives meaning to inside an entity or an attribute (ETSI GS CIM 009, core
 * @context): an attribute with one of these names would be refused by every broker on each write.
 */
export const reservedAttributeNames: Readonly<Record<string, ReservedBecause>> = {
  id: "entity",
  type: "entity",
  scope: "entity",
  value: "attribute",
  object: "attribute",
  objectType: "attribute",
  objectList: "attribute",
  languageMap: "attribute",
  vocab: "attribute",
  json: "attribute",
  valueList: "attribute",
  unitCode: "attribute",
  observedAt: "attribute",
  datasetId: "attribute",
  lang: "attribute",
  createdAt: "system",
  modifiedAt: "system",
  deletedAt: "system",
  instanceId: "temporal",
  previousValue: "notification",
  previousObject: "notification",
  previousLanguageMap: "notification",
  previousVocab: "notification",
  previousJson: "notification",
  previousValueList: "notification",
  previousObjectList: "notification",
};

/** The name of an attribute (a property of a type): an NGSI-LD name that is not one of NGSI-LD's own members. */
export const attributeName: Field = { ...ngsiName, reserved: reservedAttributeNames };

/** A short text on one line (a credential type, a name in another system). */
export const singleLineText = {
  input: "text",
  maxLength: 200,
  pattern: singleLine,
  format: "singleLine",
} as const;

/**
 * An optional scope (a contract's or a contract detail's): a type of the workspace, and then, required,
 * the id of an entity of that type; without a type there is no entity.
 */
export const scopeFields: readonly Field[] = [
  reference("scopeType", "types"),
  {
    name: "scopeEntity",
    ...singleLineText,
    maxLength: 2000,
    required: true,
    when: { scopeType: { present: true } },
    entityOf: "scopeType",
  },
];
