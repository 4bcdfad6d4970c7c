import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/**
 * Every record of every resource kind lives in one table: the kinds differ only by their
 * definition in @orrery/model, so one generic repository serves them all. References between
 * records are found through the GIN index on `data` (`data @> {"hasContextBroker": id}`).
 */
export const records = pgTable(
  "records",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** The workspace a record belongs to; "" for platform records. */
    workspaceId: text("workspace_id").notNull().default(""),
    name: text("name").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Encrypted secret fields, by field name. */
    secrets: jsonb("secrets").$type<Record<string, string>>().notNull().default({}),
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // created_event and created_by (migration 0018), a create's audit event kept on its row, are
    // written by the create's statement and read only through keptCreates: not declared here, so
    // that reading a record does not fetch them.
  },
  (t) => [index("records_list").on(t.kind, t.workspaceId, sql`lower(${t.name})`, t.id)],
);

export const sessions = pgTable("sessions", {
  tokenHash: text("token_hash").primaryKey(),
  subject: text("subject").notNull(),
  username: text("username").notNull(),
  provider: text("provider").notNull(),
  permissions: jsonb("permissions")
    .$type<Array<{ action: string; resource: string; exact?: boolean }>>()
    .notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** The identity manager's grant (encrypted) to read the permissions again, and when they were last read. */
  grant: text("grant"),
  permissionsCheckedAt: timestamp("permissions_checked_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The SHA-256 hash (base64url) of each broker client's current key (migration 0019): never the key,
 * which the client was shown once. Deleted with its client, or when the client is revoked.
 */
export const brokerClientKeys = pgTable("broker_client_keys", {
  clientId: text("client_id").primaryKey(),
  keyHash: text("key_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** An authorization-code login in flight: state, PKCE verifier and nonce, kept in the database so any API process can finish it. */
export const loginRequests = pgTable("login_requests", {
  state: text("state").primaryKey(),
  codeVerifier: text("code_verifier").notNull(),
  nonce: text("nonce").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** Authorization codes issued by the development identity manager. */
export const devAuthorizationCodes = pgTable("dev_authorization_codes", {
  code: text("code").primaryKey(),
  username: text("username").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const devIdmRoles = pgTable(
  "dev_idm_roles",
  { application: text("application").notNull(), id: text("id").notNull(), name: text("name").notNull() },
  (t) => [primaryKey({ columns: [t.application, t.id] })],
);

export const devIdmRoleAssignments = pgTable(
  "dev_idm_role_assignments",
  {
    application: text("application").notNull(),
    userId: text("user_id").notNull(),
    roleId: text("role_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.application, t.userId, t.roleId] })],
);

export const devIdmPermissions = pgTable(
  "dev_idm_permissions",
  {
    application: text("application").notNull(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    action: text("action").notNull(),
    resource: text("resource").notNull(),
    isRegex: boolean("is_regex").notNull().default(false),
    roleId: text("role_id"),
  },
  (t) => [primaryKey({ columns: [t.application, t.id] })],
);

/** SIOP-2 logins in flight: a state issued to a user (subject) for a workspace, then the verifier's code. */
export const siop2States = pgTable("siop2_states", {
  state: text("state").primaryKey(),
  workspaceId: text("workspace_id").notNull(),
  subject: text("subject").notNull(),
  code: text("code"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** The JSON-LD contexts published by "generate": one per data-model version ("" type) and per type. */
export const dataModelVersions = pgTable(
  "data_model_versions",
  {
    dataModelName: text("data_model_name").notNull(),
    version: integer("version").notNull(),
    typeName: text("type_name").notNull(),
    workspaceId: text("workspace_id").notNull(),
    // json, not jsonb: the published document keeps its (alphabetical) key order.
    document: json("document").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.dataModelName, t.version, t.typeName] })],
);

/**
 * The audit trail (migration 0014): one row for each change made through the API, written in the
 * change's own transaction; append-only (only the retention removes the oldest). `changes` lists
 * the fields changed with their old and new values; a secret shows only that it changed. Read it
 * with keptCreates, the creates whose event is still on their record's row.
 */
const auditColumns = () => ({
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  subject: text("subject").notNull(),
  username: text("username").notNull(),
  provider: text("provider").notNull(),
  action: text("action").notNull(),
  kind: text("kind").notNull().default(""),
  recordId: text("record_id").notNull().default(""),
  title: text("title").notNull().default(""),
  workspaceId: text("workspace_id").notNull().default(""),
  /** success, failure (a synchronisation the peer refused) or refused (no permission). */
  outcome: text("outcome").notNull().default("success"),
  changes: jsonb("changes").$type<AuditChange[]>(),
  /** A create's values as the record was given them (its changes are listed from them when read). */
  created: jsonb("created").$type<Record<string, unknown>>(),
  detail: jsonb("detail").$type<Record<string, unknown>>(),
});

export const auditEvents = pgTable("audit_events", auditColumns(), (t) => [
  index("audit_events_record").using("hash", t.recordId),
]);

/**
 * The events of the creates whose record has not changed since (migration 0018): the record's row
 * keeps its create's event (`records.created_event`, `created_by`) until a trigger moves it to
 * audit_events in the transaction that first changes or deletes the record. The trail is
 * audit_events and these (the view audit_trail, for SQL readers).
 */
export const keptCreates = pgView("audit_kept_creates", auditColumns()).existing();

/** A field an update changed; a secret field carries `secret: true` and never a value. */
export interface AuditChange {
  field: string;
  before?: unknown;
  after?: unknown;
  secret?: true;
}

/**
 * The decisions of the embedded broker's policy enforcement point (migration 0020): identical ones
 * of one second share a row and its count. `holder` names who asked (a user, a broker client, a
 * consumer party, or "" without a credential); never a token.
 */
export const dataAccessDecisions = pgTable("data_access_decisions", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  at: timestamp("at", { withTimezone: true }).notNull(),
  lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  count: integer("count").notNull().default(1),
  holder: text("holder").notNull(),
  holderKind: text("holder_kind").notNull(),
  party: text("party").notNull().default(""),
  clientId: text("client_id").notNull().default(""),
  roles: jsonb("roles").$type<string[]>(),
  method: text("method").notNull(),
  tenant: text("tenant").notNull(),
  entityType: text("entity_type").notNull().default(""),
  entityId: text("entity_id").notNull().default(""),
  path: text("path").notNull(),
  permit: boolean("permit").notNull(),
  reason: text("reason").notNull(),
  detail: text("detail").notNull().default(""),
});
