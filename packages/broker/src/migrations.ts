/**
 * The broker's tables, applied by the host after its own migrations (apps/api's migrate() runs
 * them in its transaction, under its advisory lock). Append-only: never edit a shipped migration.
 *
 * - broker_tenants: tenants that have been written to (NGSILD-Tenant; "" is the default tenant),
 *   so that a read on an unknown tenant answers 404 NonexistentTenant.
 * - broker_entities: one row per entity, keyed by tenant and id, with the expanded types and the
 *   attributes in expanded normalized form (model.ts). GIN indexes serve type selection (`types &&`,
 *   `types @>`) and q terms translated to jsonpath (`attrs @? ...`, query-sql.ts).
 *
 * Temporal (next slice): every attribute instance already carries createdAt/modifiedAt (and
 * observedAt when given). The temporal API will add a `broker_attribute_instances` table
 * (tenant, entity_id, attribute, dataset_id, instance_id, observed_at, created_at, modified_at,
 * value jsonb) written in the same transaction as each change to broker_entities.
 */
export const brokerMigrations: Array<{ name: string; sql: string }> = [
  {
    name: "broker_0001_entities",
    sql: `
      CREATE TABLE broker_tenants (
        name text PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE broker_entities (
        tenant text NOT NULL,
        id text NOT NULL,
        types text[] NOT NULL,
        attrs jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, id)
      );
      CREATE INDEX broker_entities_types ON broker_entities USING gin (types);
      CREATE INDEX broker_entities_attrs ON broker_entities USING gin (attrs jsonb_path_ops);
    `,
  },
];
