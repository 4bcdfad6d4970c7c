import { sql } from "drizzle-orm";
import { brokerMigrations } from "@orrery/broker";
import { rowsOf, type Database } from "./database.ts";

/**
 * Ordered, append-only migrations, applied at start inside one transaction each. Never edit a
 * migration that has shipped: add a new one.
 */
const migrations: Array<{ name: string; sql: string }> = [
  {
    name: "0001_records_sessions",
    sql: `
      CREATE TABLE records (
        id text PRIMARY KEY,
        kind text NOT NULL,
        workspace_id text,
        name text NOT NULL,
        data jsonb NOT NULL,
        secrets jsonb NOT NULL DEFAULT '{}'::jsonb,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX records_list ON records (kind, workspace_id, lower(name), id);
      CREATE INDEX records_data ON records USING gin (data jsonb_path_ops);
      CREATE TABLE sessions (
        token_hash text PRIMARY KEY,
        subject text NOT NULL,
        username text NOT NULL,
        provider text NOT NULL,
        permissions jsonb NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE login_requests (
        state text PRIMARY KEY,
        code_verifier text NOT NULL,
        nonce text NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE TABLE dev_authorization_codes (
        code text PRIMARY KEY,
        username text NOT NULL,
        code_challenge text NOT NULL,
        redirect_uri text NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);
    `,
  },
  {
    // Platform records get workspace '' instead of NULL: equality lets the list index give the sort order.
    name: "0002_platform_scope_not_null",
    sql: `
      UPDATE records SET workspace_id = '' WHERE workspace_id IS NULL;
      ALTER TABLE records ALTER COLUMN workspace_id SET DEFAULT '';
      ALTER TABLE records ALTER COLUMN workspace_id SET NOT NULL
    `,
  },
  {
    // Published JSON-LD contexts: every generated version stays served.
    name: "0003_data_model_versions",
    sql: `
      CREATE TABLE data_model_versions (
        data_model_name text NOT NULL,
        version integer NOT NULL,
        type_name text NOT NULL,
        workspace_id text NOT NULL,
        document json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (data_model_name, version, type_name)
      )
    `,
  },
  {
    // Permissions read again from the identity manager while a session lasts (Keyrock).
    name: "0004_session_grant",
    sql: `
      ALTER TABLE sessions ADD COLUMN "grant" text;
      ALTER TABLE sessions ADD COLUMN permissions_checked_at timestamptz NOT NULL DEFAULT now()
    `,
  },
  {
    // Names that must be unique, held by the database itself so that concurrent creations cannot
    // both win: a workspace's data model name, a type's name in its workspace, a property's name
    // among its siblings (same type, same parent). Duplicates made before this migration would
    // stop it: the later ones get a numbered suffix ("-2", "_2"), which their owners see and can
    // rename (the data model could not be generated with them anyway).
    name: "0005_unique_names",
    sql: `
      UPDATE records r SET data = jsonb_set(r.data, '{dataModelName}', to_jsonb(left(r.data->>'dataModelName', 45) || '-' || d.n))
        FROM (SELECT id, row_number() OVER (PARTITION BY data->>'dataModelName' ORDER BY created_at, id) AS n
              FROM records WHERE kind = 'workspaces') d
        WHERE r.id = d.id AND d.n > 1;
      UPDATE records r SET name = r.name || '_' || d.n, data = jsonb_set(r.data, '{name}', to_jsonb(r.name || '_' || d.n))
        FROM (SELECT id, row_number() OVER (PARTITION BY workspace_id, name ORDER BY created_at, id) AS n
              FROM records WHERE kind = 'types') d
        WHERE r.id = d.id AND d.n > 1;
      UPDATE records r SET name = r.name || '_' || d.n, data = jsonb_set(r.data, '{name}', to_jsonb(r.name || '_' || d.n))
        FROM (SELECT id, row_number() OVER (
                PARTITION BY workspace_id, data->>'hasType', coalesce(data->>'hasProperty', ''), name
                ORDER BY created_at, id) AS n
              FROM records WHERE kind = 'properties') d
        WHERE r.id = d.id AND d.n > 1;
      CREATE UNIQUE INDEX records_unique_data_model_name ON records ((data->>'dataModelName')) WHERE kind = 'workspaces';
      CREATE UNIQUE INDEX records_unique_type_name ON records (workspace_id, name) WHERE kind = 'types';
      CREATE UNIQUE INDEX records_unique_property_name
        ON records (workspace_id, (data->>'hasType'), (coalesce(data->>'hasProperty', '')), name)
        WHERE kind = 'properties'
    `,
  },
  {
    // The development identity manager's application roles and who holds them (its /idm/v1 API).
    name: "0006_dev_identity_manager_roles",
    sql: `
      CREATE TABLE dev_idm_roles (
        application text NOT NULL,
        id text NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (application, id)
      );
      CREATE TABLE dev_idm_role_assignments (
        application text NOT NULL,
        user_id text NOT NULL,
        role_id text NOT NULL,
        PRIMARY KEY (application, user_id, role_id)
      )
    `,
  },
  {
    // The development identity manager's permissions, each in at most one role (contract detail synchronisation).
    name: "0007_dev_identity_manager_permissions",
    sql: `
      CREATE TABLE dev_idm_permissions (
        application text NOT NULL,
        id text NOT NULL,
        name text NOT NULL,
        action text NOT NULL,
        resource text NOT NULL,
        is_regex boolean NOT NULL DEFAULT false,
        role_id text,
        PRIMARY KEY (application, id)
      )
    `,
  },
  {
    // SIOP-2 logins in flight: the verifier's code for a state, single use, kept a few minutes.
    name: "0008_siop2_states",
    sql: `
      CREATE TABLE siop2_states (
        state text PRIMARY KEY,
        code text NOT NULL,
        expires_at timestamptz NOT NULL
      )
    `,
  },
];

export async function migrate(db: Database): Promise<void> {
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS orrery_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  // One process migrates at a time when several start together on one PostgreSQL.
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(4242001)`);
    const done = await tx.execute(sql`SELECT name FROM orrery_migrations`);
    const applied = new Set(rowsOf<{ name: string }>(done).map((r) => r.name));
    // The embedded NGSI-LD broker's tables come after the API's own, in the same transaction and lock.
    for (const m of [...migrations, ...brokerMigrations]) {
      if (applied.has(m.name)) continue;
      for (const statement of m.sql
        .split(";")
        .map((s) => s.trim())
        .filter(Boolean)) {
        await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`INSERT INTO orrery_migrations (name) VALUES (${m.name})`);
    }
  });
}
