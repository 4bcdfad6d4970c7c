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
 * - broker_subscriptions (0002): one row per subscription; `body` holds its definition with names
 *   expanded (subscription-model.ts), the other columns what the delivery worker filters on and
 *   the delivery status it keeps up to date.
 * - broker_notifications (0002): the outbox. A notification is enqueued in the transaction of the
 *   entity change that caused it and deleted once delivered or given up (delivery.ts).
 * - broker_temporal_entities and broker_attribute_instances (0003): the temporal history. Every
 *   attribute instance a change writes becomes a row, in the transaction of the change
 *   (history.ts); the registry lists the entities that have a history, also after the entity
 *   itself was deleted. observed_at is the instance's observedAt, else its modifiedAt. The
 *   migration starts the history of existing entities with their current instances.
 * - broker_tenants.writes (0004): how many entity writes of the tenant have committed, increased
 *   in each write's transaction; counts are remembered with it, and carried forward by the writes
 *   of the process that remembers them (counts.ts).
 *   The default tenant gets its row here (the store never inserts it: it always exists).
 *
 * - broker_csource_registrations and broker_csource_subscriptions (0006): context source
 *   registrations (registration-model.ts, names expanded) and the subscriptions to them, one row
 *   each per tenant; a tenant has few, so they are matched in memory (registrations.ts).

 * - broker_geo_box(attrs) (0008): the bounding box of every GeoProperty instance of an entity, as a
 *   native box (PGlite holds no PostGIS), indexed with GiST. Geo-queries select their candidates
 *   with `broker_geo_box(attrs) && <the query's box>`, then test the exact relation on those only
 *   (geo.ts, geo-sql.ts). One box per entity, the union of its geo attributes: a superset for any
 *   geoproperty. A geometry with segments gets its box widened poleward by the most a great-circle
 *   arc of its width can bulge (turf measures distances to segments along great circles), and to the
 *   whole globe when it spans 180 degrees of longitude or more (its segments cross the antimeridian).
 *   An expression index, not a column: no table rewrite, and rows stay as the other queries read them.
 *
 * - broker_0009: a leaner history and counts by type. broker_attribute_instances loses its index on
 *   (tenant, observed_at), which no query used (the temporal API always reads the instances of
 *   chosen entities, through the entity index), and its entity_types column, which nothing read
 *   (the registry broker_temporal_entities holds the types): a temporal write does a fifth less work
 *   in PostgreSQL. broker_type_counts holds, per tenant and expanded type, how many entities have
 *   that type, updated in the transaction of every entity write by what the write changed
 *   (storage.ts), so that a query by type alone counts in one row read, whoever wrote last.
 *
 * - broker_0010: the history as ONE row per entity write. broker_history_writes holds, per entity
 *   write, the instances it wrote as a jsonb array of [expanded attribute, instance, instanceId],
 *   and the span of observation times they cover (observed_from, observed_to: what a time window
 *   prunes on); an element whose times are not those its instance gives (observedAt, else
 *   modifiedAt; createdAt, else modifiedAt; modifiedAt) carries them as a fourth member
 *   {"o", "c", "m"}. A batch upsert of a thousand entities of three attributes wrote 3,000 rows and
 *   index entries of broker_attribute_instances, now 1,000. A write of more than 16 instances takes
 *   a row per 16 (temporal-store.ts, CHUNK), so that rows stay small and a time window skips most.
 *   The existing rows move over, one row per entity, modification time (the instances of one write
 *   share it) and 16 instances, every instance with its instanceId and its times, and
 *   broker_attribute_instances goes.
 *
 * The runner splits each migration on ";": no statement may contain one.
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
  {
    name: "broker_0002_subscriptions",
    sql: `
      CREATE TABLE broker_subscriptions (
        tenant text NOT NULL,
        id text NOT NULL,
        body jsonb NOT NULL,
        is_active boolean NOT NULL,
        expires_at timestamptz,
        throttling double precision,
        time_interval double precision,
        next_periodic_at timestamptz,
        delivery_status text,
        times_sent integer NOT NULL DEFAULT 0,
        times_failed integer NOT NULL DEFAULT 0,
        last_notification timestamptz,
        last_success timestamptz,
        last_failure timestamptz,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, id)
      );
      CREATE TABLE broker_notifications (
        id bigserial PRIMARY KEY,
        tenant text NOT NULL,
        subscription_id text NOT NULL,
        payload jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX broker_notifications_due ON broker_notifications (next_attempt_at, id);
      CREATE INDEX broker_notifications_subscription ON broker_notifications (tenant, subscription_id)
    `,
  },
  {
    name: "broker_0003_temporal",
    sql: `
      CREATE TABLE broker_temporal_entities (
        tenant text NOT NULL,
        id text NOT NULL,
        types text[] NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, id)
      );
      CREATE INDEX broker_temporal_entities_types ON broker_temporal_entities USING gin (types);
      CREATE TABLE broker_attribute_instances (
        tenant text NOT NULL,
        entity_id text NOT NULL,
        entity_types text[] NOT NULL,
        attribute text NOT NULL,
        dataset_id text NOT NULL DEFAULT '',
        instance_id text NOT NULL,
        observed_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        value jsonb NOT NULL
      );
      CREATE INDEX broker_attribute_instances_entity
        ON broker_attribute_instances (tenant, entity_id, attribute, observed_at);
      CREATE INDEX broker_attribute_instances_time ON broker_attribute_instances (tenant, observed_at);
      INSERT INTO broker_temporal_entities (tenant, id, types, created_at)
        SELECT tenant, id, types, created_at FROM broker_entities;
      INSERT INTO broker_attribute_instances
        (tenant, entity_id, entity_types, attribute, dataset_id, instance_id, observed_at, created_at, modified_at, value)
        SELECT e.tenant, e.id, e.types, a.key, coalesce(i->>'datasetId', ''),
               'urn:ngsi-ld:attribute:instance:' || gen_random_uuid(),
               coalesce((i->>'observedAt')::timestamptz, (i->>'modifiedAt')::timestamptz, e.modified_at),
               coalesce((i->>'createdAt')::timestamptz, e.created_at),
               coalesce((i->>'modifiedAt')::timestamptz, e.modified_at), i
        FROM broker_entities e
        CROSS JOIN LATERAL jsonb_each(e.attrs) AS a(key, instances)
        CROSS JOIN LATERAL jsonb_array_elements(a.instances) AS i
    `,
  },
  {
    name: "broker_0004_tenant_writes",
    sql: `
      ALTER TABLE broker_tenants ADD COLUMN writes bigint NOT NULL DEFAULT 0;
      INSERT INTO broker_tenants (name) VALUES ('') ON CONFLICT DO NOTHING
    `,
  },
  {
    name: "broker_0006_csource_registrations",
    sql: `
      CREATE TABLE broker_csource_registrations (
        tenant text NOT NULL,
        id text NOT NULL,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, id)
      );
      CREATE TABLE broker_csource_subscriptions (
        tenant text NOT NULL,
        id text NOT NULL,
        body jsonb NOT NULL,
        delivery_status text,
        times_sent integer NOT NULL DEFAULT 0,
        times_failed integer NOT NULL DEFAULT 0,
        last_notification timestamptz,
        last_success timestamptz,
        last_failure timestamptz,
        created_at timestamptz NOT NULL,
        modified_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, id)
      )
    `,
  },
  {
    name: "broker_0008_geo_box",
    sql: `
      CREATE FUNCTION broker_geo_box(attrs jsonb) RETURNS box
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN b.x1 IS NULL THEN NULL
          WHEN NOT b.segments THEN box(point(b.x1, b.y1), point(b.x2, b.y2))
          WHEN b.x2 - b.x1 >= 180 THEN box(point(-180, -90), point(180, 90))
          ELSE box(
            point(b.x1, CASE WHEN b.y1 < 0
              THEN -degrees(atan(tan(radians(-b.y1)) / cos(radians((b.x2 - b.x1) / 2)))) ELSE b.y1 END),
            point(b.x2, CASE WHEN b.y2 > 0
              THEN degrees(atan(tan(radians(b.y2)) / cos(radians((b.x2 - b.x1) / 2)))) ELSE b.y2 END))
        END
        FROM (
          SELECT min((p->>0)::float8) AS x1, min((p->>1)::float8) AS y1,
                 max((p->>0)::float8) AS x2, max((p->>1)::float8) AS y2,
                 bool_or(g->>'type' NOT IN ('Point', 'MultiPoint')) AS segments
          FROM jsonb_path_query(attrs, 'strict $.*[*] ? (@.type == "GeoProperty").value', '{}', true) AS g
          CROSS JOIN LATERAL jsonb_path_query(g,
            'strict $.coordinates.** ? (@.type() == "array" && @.size() >= 2 && @[0].type() == "number")',
            '{}', true) AS p
        ) AS b
      $$;
      CREATE INDEX broker_entities_geo_box ON broker_entities USING gist (broker_geo_box(attrs))
    `,
  },
  {
    name: "broker_0009_lean_history_type_counts",
    sql: `
      DROP INDEX broker_attribute_instances_time;
      ALTER TABLE broker_attribute_instances DROP COLUMN entity_types;
      CREATE TABLE broker_type_counts (
        tenant text NOT NULL,
        type text NOT NULL,
        entities bigint NOT NULL,
        PRIMARY KEY (tenant, type)
      );
      INSERT INTO broker_type_counts (tenant, type, entities)
        SELECT e.tenant, t, count(DISTINCT e.id) FROM broker_entities e CROSS JOIN LATERAL unnest(e.types) AS t
        GROUP BY e.tenant, t
    `,
  },
  {
    name: "broker_0010_history_writes",
    sql: `
      CREATE TABLE broker_history_writes (
        tenant text NOT NULL,
        entity_id text NOT NULL,
        observed_from timestamptz NOT NULL,
        observed_to timestamptz NOT NULL,
        instances jsonb NOT NULL
      );
      CREATE INDEX broker_history_writes_entity ON broker_history_writes (tenant, entity_id);
      INSERT INTO broker_history_writes (tenant, entity_id, observed_from, observed_to, instances)
        SELECT i.tenant, i.entity_id, min(i.observed_at), max(i.observed_at),
               jsonb_agg(jsonb_build_array(i.attribute, i.value, i.instance_id)
                 || CASE WHEN t.overrides = '{}'::jsonb THEN '[]'::jsonb ELSE jsonb_build_array(t.overrides) END
                 ORDER BY i.observed_at, i.instance_id)
        FROM (SELECT *, (row_number() OVER (PARTITION BY tenant, entity_id, modified_at
                                             ORDER BY observed_at, instance_id) - 1) / 16 AS chunk
              FROM broker_attribute_instances) AS i
        CROSS JOIN LATERAL (SELECT jsonb_strip_nulls(jsonb_build_object(
          'o', CASE WHEN i.observed_at IS DISTINCT FROM coalesce((i.value->>'observedAt')::timestamptz,
                 (i.value->>'modifiedAt')::timestamptz) THEN i.observed_at END,
          'c', CASE WHEN i.created_at IS DISTINCT FROM coalesce((i.value->>'createdAt')::timestamptz,
                 (i.value->>'modifiedAt')::timestamptz) THEN i.created_at END,
          'm', CASE WHEN i.modified_at IS DISTINCT FROM (i.value->>'modifiedAt')::timestamptz
                 THEN i.modified_at END
        )) AS overrides) AS t
        GROUP BY i.tenant, i.entity_id, i.modified_at, i.chunk;
      DROP TABLE broker_attribute_instances
    `,
  },
];
