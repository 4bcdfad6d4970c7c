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
  {
    // SIOP-2 logins are started by the API: a state is issued to a signed-in user for one workspace,
    // and the verifier's callback may only fill an issued, pending state. The codes in flight are
    // a few minutes' worth and are dropped with the old table.
    name: "0011_siop2_issued_states",
    sql: `
      DROP TABLE siop2_states;
      CREATE TABLE siop2_states (
        state text PRIMARY KEY,
        workspace_id text NOT NULL,
        subject text NOT NULL,
        code text,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX siop2_states_expires_at ON siop2_states (expires_at)
    `,
  },
  {
    // A role's roleName: the access subject of its policy in the authorization registry, one word
    // (Keyrock refuses whitespace) unique in its workspace. Existing roles get their name's words
    // joined with "_", later duplicates a numbered suffix ("_2"), and one that still clashes (a
    // role already named so) a piece of its id; their accesses carry it. A role whose access
    // subject changes is no longer synchronised: the registry knows only the old one.
    name: "0010_role_name",
    sql: `
      UPDATE records r SET data = r.data
          || jsonb_build_object('roleName', d.token || CASE WHEN d.n > 1 THEN '_' || d.n ELSE '' END)
          || CASE WHEN d.n = 1 AND d.token = r.name THEN '{}'::jsonb ELSE '{"synchronized": false}'::jsonb END
        FROM (SELECT id, token, row_number() OVER (PARTITION BY workspace_id, token ORDER BY created_at, id) AS n
              FROM (SELECT id, workspace_id, created_at,
                           coalesce(nullif(regexp_replace(regexp_replace(name, '^\\s+|\\s+$', '', 'g'), '\\s+', '_', 'g'), ''), 'role') AS token
                    FROM records WHERE kind = 'roles') t) d
        WHERE r.id = d.id;
      UPDATE records r SET data = jsonb_set(r.data, '{roleName}', to_jsonb((r.data->>'roleName') || '_' || left(md5(r.id), 8)))
        FROM (SELECT id, row_number() OVER (PARTITION BY workspace_id, data->>'roleName' ORDER BY created_at, id) AS n
              FROM records WHERE kind = 'roles') d
        WHERE r.id = d.id AND d.n > 1;
      UPDATE records a SET data = jsonb_set(a.data, '{roleName}', r.data->'roleName')
        FROM records r
        WHERE a.kind = 'data-service-accesses' AND r.kind = 'roles' AND r.id = a.data->>'hasRole';
      CREATE UNIQUE INDEX records_unique_role_name ON records (workspace_id, (data->>'roleName')) WHERE kind = 'roles'
    `,
  },
  {
    // A grant names the one peer its secrets go to (identity manager, authorization registry):
    // each existing grant takes the peer of the records that pair it (workspaces, services,
    // temporal services). A grant paired with several peers is copied once per extra peer (same
    // encrypted secrets: the cipher does not bind them to the record id), named after that peer,
    // and the records pairing it with that peer are re-pointed to the copy. A grant paired with
    // none keeps no peer: it is refused where it is used, and its form asks for one. Each update
    // of a pairing record handles one grant kind, so that a workspace with both grants to
    // re-point gets both.
    name: "0009_grant_peer",
    sql: `
      CREATE TEMPORARY TABLE grant_pairings ON COMMIT DROP AS
        SELECT grant_id, grant_kind, peer_field, grant_field, peer_id, peer_name,
               CASE WHEN row_number() OVER (PARTITION BY grant_id ORDER BY peer_name, peer_id) = 1
                 THEN grant_id
                 ELSE 'urn:ngsi-ld:' || urn_type || ':' || gen_random_uuid()::text END AS new_id
        FROM (
          SELECT DISTINCT g.id AS grant_id, x.grant_kind, x.urn_type, x.peer_field, x.grant_field,
                 peer.id AS peer_id, peer.name AS peer_name
          FROM (VALUES
              ('identity-manager-grants', 'IdentityManagerGrant', 'identity-managers',
               'hasIdentityManager', 'hasIdentityManagerGrant'),
              ('authorization-registry-grants', 'AuthorizationRegistryGrant', 'authorization-registries',
               'hasAuthorizationRegistry', 'hasAuthorizationRegistryGrant')
            ) AS x (grant_kind, urn_type, peer_kind, peer_field, grant_field)
          JOIN records p ON p.kind IN ('workspaces', 'services', 'temporal-services')
          JOIN records g ON g.kind = x.grant_kind AND g.id = p.data->>x.grant_field
          JOIN records peer ON peer.kind = x.peer_kind AND peer.id = p.data->>x.peer_field
        ) pairs;
      UPDATE records g
        SET data = g.data || jsonb_build_object(x.peer_field, x.peer_id),
            version = g.version + 1, updated_at = now()
        FROM grant_pairings x
        WHERE x.new_id = x.grant_id AND g.id = x.grant_id;
      INSERT INTO records (id, kind, workspace_id, name, data, secrets, version)
        SELECT x.new_id, g.kind, g.workspace_id, copy.name,
               g.data || jsonb_build_object('name', copy.name, x.peer_field, x.peer_id), g.secrets, 1
        FROM grant_pairings x
        JOIN records g ON g.id = x.grant_id
        CROSS JOIN LATERAL (SELECT left(g.name, 60) || ' (' || left(x.peer_name, 36) || ')' AS name) copy
        WHERE x.new_id <> x.grant_id;
      UPDATE records p
        SET data = jsonb_set(p.data, ARRAY[x.grant_field], to_jsonb(x.new_id)),
            version = p.version + 1, updated_at = now()
        FROM grant_pairings x
        WHERE x.grant_kind = 'identity-manager-grants' AND x.new_id <> x.grant_id
          AND p.kind IN ('workspaces', 'services', 'temporal-services')
          AND p.data->>x.grant_field = x.grant_id AND p.data->>x.peer_field = x.peer_id;
      UPDATE records p
        SET data = jsonb_set(p.data, ARRAY[x.grant_field], to_jsonb(x.new_id)),
            version = p.version + 1, updated_at = now()
        FROM grant_pairings x
        WHERE x.grant_kind = 'authorization-registry-grants' AND x.new_id <> x.grant_id
          AND p.kind IN ('workspaces', 'services', 'temporal-services')
          AND p.data->>x.grant_field = x.grant_id AND p.data->>x.peer_field = x.peer_id
    `,
  },
  {
    // The names of a thing description's properties, actions, events and routings, and of an
    // action's input properties, are unique there (they key its affordances): held by the database,
    // so that simultaneous creations cannot both win. Existing duplicates after the first get a
    // numbered suffix ("_2"), and one that still clashes (with a record already named so, which keeps
    // its name) a piece of its id.
    name: "0012_wot_unique_names",
    sql: `
      CREATE TEMPORARY TABLE wot_names ON COMMIT DROP AS
        SELECT id, CASE kind WHEN 'wot-action-input-properties' THEN 'hasWoTAction'
                             ELSE 'hasWoTThingDescription' END AS parent, false AS renamed
        FROM records
        WHERE kind IN ('wot-properties', 'wot-actions', 'wot-events', 'routings', 'wot-action-input-properties');
      WITH renamed AS (
        UPDATE records r SET name = r.name || '_' || d.n, data = jsonb_set(r.data, '{name}', to_jsonb(r.name || '_' || d.n)),
                             version = r.version + 1, updated_at = now()
          FROM (SELECT r.id, row_number() OVER (
                  PARTITION BY r.kind, r.workspace_id, r.data->>w.parent, r.name ORDER BY r.created_at, r.id) AS n
                FROM records r JOIN wot_names w ON w.id = r.id) d
          WHERE r.id = d.id AND d.n > 1
          RETURNING r.id)
      UPDATE wot_names w SET renamed = true FROM renamed WHERE w.id = renamed.id;
      UPDATE records r SET name = r.name || '_' || left(md5(r.id), 8),
                           data = jsonb_set(r.data, '{name}', to_jsonb(r.name || '_' || left(md5(r.id), 8))),
                           version = r.version + 1, updated_at = now()
        FROM (SELECT r.id, row_number() OVER (
                PARTITION BY r.kind, r.workspace_id, r.data->>w.parent, r.name
                ORDER BY w.renamed, r.created_at, r.id) AS n
              FROM records r JOIN wot_names w ON w.id = r.id) d
        WHERE r.id = d.id AND d.n > 1;
      CREATE UNIQUE INDEX records_unique_wot_property_name
        ON records (workspace_id, (data->>'hasWoTThingDescription'), name) WHERE kind = 'wot-properties';
      CREATE UNIQUE INDEX records_unique_wot_action_name
        ON records (workspace_id, (data->>'hasWoTThingDescription'), name) WHERE kind = 'wot-actions';
      CREATE UNIQUE INDEX records_unique_wot_event_name
        ON records (workspace_id, (data->>'hasWoTThingDescription'), name) WHERE kind = 'wot-events';
      CREATE UNIQUE INDEX records_unique_routing_name
        ON records (workspace_id, (data->>'hasWoTThingDescription'), name) WHERE kind = 'routings';
      CREATE UNIQUE INDEX records_unique_wot_input_name
        ON records (workspace_id, (data->>'hasWoTAction'), name) WHERE kind = 'wot-action-input-properties'
    `,
  },
  {
    // Names a workspace needs unique, held by the database so that simultaneous creations cannot
    // both win: a role's name (contract synchronisation lists its roles by name), a data service's
    // name when it has one, a thing description's name; a contract's stakeholder DID (the trusted
    // issuers list keeps one entry a DID, so two contracts would overwrite each other there); an
    // operation's sequence number in its routing (it orders the operations). Existing duplicate
    // names after the first get a numbered suffix ("_2"), or a piece of their id when that clashes
    // too; a duplicate DID gets a "#duplicate-2" fragment, which no presented credential matches,
    // for its owner to merge or correct; a routing with two operations at one number has its
    // operations numbered again from its first number, in their order.
    name: "0013_workspace_unique_names",
    sql: `
      CREATE TEMPORARY TABLE workspace_names ON COMMIT DROP AS
        SELECT id, false AS renamed FROM records
        WHERE kind IN ('roles', 'data-services', 'wot-thing-descriptions') AND name <> '';
      WITH renamed AS (
        UPDATE records r SET name = left(r.name, 90) || '_' || d.n,
                             data = jsonb_set(r.data, '{name}', to_jsonb(left(r.name, 90) || '_' || d.n)),
                             version = r.version + 1, updated_at = now()
          FROM (SELECT r.id, row_number() OVER (
                  PARTITION BY r.kind, r.workspace_id, r.name ORDER BY r.created_at, r.id) AS n
                FROM records r JOIN workspace_names w ON w.id = r.id) d
          WHERE r.id = d.id AND d.n > 1
          RETURNING r.id)
      UPDATE workspace_names w SET renamed = true FROM renamed WHERE w.id = renamed.id;
      UPDATE records r SET name = left(r.name, 90) || '_' || left(md5(r.id), 8),
                           data = jsonb_set(r.data, '{name}', to_jsonb(left(r.name, 90) || '_' || left(md5(r.id), 8))),
                           version = r.version + 1, updated_at = now()
        FROM (SELECT r.id, row_number() OVER (
                PARTITION BY r.kind, r.workspace_id, r.name ORDER BY w.renamed, r.created_at, r.id) AS n
              FROM records r JOIN workspace_names w ON w.id = r.id) d
        WHERE r.id = d.id AND d.n > 1;
      UPDATE records r SET data = jsonb_set(r.data, '{stakeholderDid}',
                             to_jsonb(left(r.data->>'stakeholderDid', 480) || '#duplicate-' || d.n)),
                           version = r.version + 1, updated_at = now()
        FROM (SELECT id, row_number() OVER (
                PARTITION BY workspace_id, data->>'stakeholderDid' ORDER BY created_at, id) AS n
              FROM records WHERE kind = 'contracts') d
        WHERE r.id = d.id AND d.n > 1;
      UPDATE records r SET data = jsonb_set(r.data, '{sequenceNumber}', to_jsonb((d.first + d.n - 1)::bigint)),
                           version = r.version + 1, updated_at = now()
        FROM (SELECT id, n, first, max(twins) OVER (PARTITION BY workspace_id, routing) AS twins
              FROM (SELECT id, workspace_id, data->>'hasRouting' AS routing,
                           row_number() OVER (PARTITION BY workspace_id, data->>'hasRouting'
                             ORDER BY (data->>'sequenceNumber')::numeric, created_at, id) AS n,
                           min((data->>'sequenceNumber')::numeric) OVER (
                             PARTITION BY workspace_id, data->>'hasRouting') AS first,
                           count(*) OVER (
                             PARTITION BY workspace_id, data->>'hasRouting', data->>'sequenceNumber') AS twins
                    FROM records WHERE kind = 'routing-operations') o) d
        WHERE r.id = d.id AND d.twins > 1 AND d.first + d.n - 1 <> (r.data->>'sequenceNumber')::numeric;
      CREATE UNIQUE INDEX records_unique_named_role ON records (workspace_id, name) WHERE kind = 'roles';
      CREATE UNIQUE INDEX records_unique_data_service_name
        ON records (workspace_id, name) WHERE kind = 'data-services' AND name <> '';
      CREATE UNIQUE INDEX records_unique_thing_description_name
        ON records (workspace_id, name) WHERE kind = 'wot-thing-descriptions';
      CREATE UNIQUE INDEX records_unique_contract_stakeholder
        ON records (workspace_id, (data->>'stakeholderDid')) WHERE kind = 'contracts';
      CREATE UNIQUE INDEX records_unique_operation_sequence
        ON records (workspace_id, (data->>'hasRouting'), (data->>'sequenceNumber')) WHERE kind = 'routing-operations'
    `,
  },
  {
    // The audit trail: append-only, written in each change's transaction (apps/api/src/audit). One
    // index besides the key (a record's history): each costs every change; the hourly retention
    // and the time filters read in id order instead.
    name: "0014_audit_trail",
    sql: `
      CREATE TABLE audit_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        subject text NOT NULL,
        username text NOT NULL,
        provider text NOT NULL,
        action text NOT NULL,
        kind text NOT NULL DEFAULT '',
        record_id text NOT NULL DEFAULT '',
        title text NOT NULL DEFAULT '',
        workspace_id text NOT NULL DEFAULT '',
        outcome text NOT NULL DEFAULT 'success',
        changes jsonb,
        detail jsonb
      );
      CREATE INDEX audit_events_record ON audit_events (record_id, id)
    `,
  },
  {
    // The last connection check of each registered component (broker, identity manager, grant...):
    // claimed_at lets one API process among several take a component's next background check.
    name: "0015_component_health",
    sql: `
      CREATE TABLE component_health (
        id text PRIMARY KEY,
        kind text NOT NULL,
        state text NOT NULL DEFAULT 'unchecked',
        reasons jsonb NOT NULL DEFAULT '[]',
        round_trip_ms integer,
        version text,
        checked_at timestamptz,
        claimed_at timestamptz NOT NULL DEFAULT now()
      )
    `,
  },
  {
    // A create's event keeps the record's values as its own jsonb, copied in the create's statement,
    // instead of a list of changes built, sent and parsed (a third of what the trail cost a create).
    name: "0016_audit_created_values",
    sql: `ALTER TABLE audit_events ADD COLUMN created jsonb`,
  },
  {
    // A record's events are found by equality only (its History tab, the trail's record filter):
    // a hash index costs each change the trail records about a third of what the btree on
    // (record_id, id) did (0.8 against 2.5 µs a row, 200,000 URNs), whose comparisons walked the
    // URNs' long shared prefix.
    name: "0017_audit_record_hash",
    sql: `
      DROP INDEX audit_events_record;
      CREATE INDEX audit_events_record ON audit_events USING hash (record_id);
    `,
  },
  {
    // A create's event is kept on the row it creates (created_event: its id in the trail's order,
    // created_by: who, the title, the secrets set) until the row first changes: a trigger then moves
    // it to audit_events, in the transaction of that update or delete, with the values the record was
    // created with (still its data). A create writes one row instead of two: the second row, its two
    // index entries and their WAL were most of what the trail cost a create on PostgreSQL. The view
    // audit_kept_creates lists the events kept on rows; audit_trail, the whole trail (for SQL
    // readers: the API pages each of the two on its own index, as PostgreSQL 15 sorts a UNION ALL's
    // filtered branch instead of reading its index in order). The retention clears a create's event
    // by setting created_event to NULL, which the trigger lets pass.
    name: "0018_create_event_on_row",
    sql: `
      ALTER TABLE records ADD COLUMN created_event bigint, ADD COLUMN created_by jsonb;
      CREATE INDEX records_created_event ON records (created_event) WHERE created_event IS NOT NULL;
      CREATE FUNCTION records_keep_create_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND NEW.created_event IS NULL THEN
          RETURN NEW;
        END IF;
        -- The event as audit_kept_creates reads it (the row is not changed yet).
        INSERT INTO audit_events (id, at, subject, username, provider, action, kind, record_id, title,
                                  workspace_id, outcome, changes, created, detail)
          OVERRIDING SYSTEM VALUE
          SELECT * FROM audit_kept_creates WHERE record_id = OLD.id;
        IF TG_OP = 'DELETE' THEN
          RETURN OLD;
        END IF;
        NEW.created_event := NULL;
        NEW.created_by := NULL;
        RETURN NEW;
      END $$;
      CREATE TRIGGER records_create_event BEFORE UPDATE OR DELETE ON records
        FOR EACH ROW WHEN (OLD.created_event IS NOT NULL) EXECUTE FUNCTION records_keep_create_event();
      CREATE VIEW audit_kept_creates AS
        SELECT created_event AS id, created_at AS at, created_by->>'subject' AS subject,
               created_by->>'username' AS username, created_by->>'provider' AS provider, 'create' AS action,
               kind, id AS record_id, created_by->>'title' AS title, workspace_id, 'success' AS outcome,
               nullif(created_by->'changes', 'null') AS changes, data AS created, NULL::jsonb AS detail
          FROM records WHERE created_event IS NOT NULL;
      CREATE VIEW audit_trail AS
        SELECT id, at, subject, username, provider, action, kind, record_id, title, workspace_id, outcome,
               changes, created, detail
          FROM audit_events
        UNION ALL
        SELECT * FROM audit_kept_creates
    `,
  },
  {
    // Broker clients' keys (apps/api/src/broker-clients): only the SHA-256 hash of each client's
    // current key, found by equality on the hot path of every /ngsi-ld/v1 request (the unique index),
    // gone with its client (a revocation deletes it too). A client's name is unique: the data
    // access log and the console name a client by it.
    name: "0019_broker_client_keys",
    sql: `
      CREATE TABLE broker_client_keys (
        client_id text PRIMARY KEY REFERENCES records (id) ON DELETE CASCADE,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX records_unique_broker_client_name ON records (name) WHERE kind = 'broker-clients'
    `,
  },
  {
    // The decisions of the embedded broker's policy enforcement point (apps/api/src/pep): who was let
    // read or write which data, or refused and why. Identical decisions of one second are one row with
    // a count, so a client repeating a call (or a flood of refusals) costs one row, not one a request.
    // The Data access page pages it newest first (primary key) and filters by tenant; the retention
    // deletes by time.
    name: "0020_data_access_decisions",
    sql: `
      CREATE TABLE data_access_decisions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL,
        last_at timestamptz NOT NULL,
        count integer NOT NULL DEFAULT 1,
        holder text NOT NULL,
        holder_kind text NOT NULL,
        party text NOT NULL DEFAULT '',
        client_id text NOT NULL DEFAULT '',
        roles jsonb,
        method text NOT NULL,
        tenant text NOT NULL,
        entity_type text NOT NULL DEFAULT '',
        entity_id text NOT NULL DEFAULT '',
        path text NOT NULL,
        permit boolean NOT NULL,
        reason text NOT NULL,
        detail text NOT NULL DEFAULT ''
      );
      CREATE INDEX data_access_decisions_at ON data_access_decisions (at);
      CREATE INDEX data_access_decisions_tenant ON data_access_decisions (tenant, id)
    `,
  },
  {
    // A context broker's custom headers carry credentials (an Authorization, an API key): their values
    // become secrets (model: secretValues). The names stay as data, each {"set": true}; the values go to
    // secrets.customHeaders, marked "plain:" until the API seals them with its key at start (SQL has
    // no key: Records.sealPlainValues, before any request). Past audit events keep the names only.
    // The create's event kept on a row reads the row's data: rewritten with the trigger of 0018 off,
    // it stays on its row, scrubbed too.
    name: "0021_custom_header_secrets",
    sql: `
      ALTER TABLE records DISABLE TRIGGER records_create_event;
      UPDATE records
         SET secrets = secrets || jsonb_build_object('customHeaders', 'plain:' || (data->'customHeaders')::text),
             data = jsonb_set(data, '{customHeaders}', (SELECT coalesce(jsonb_object_agg(key, '{"set": true}'::jsonb), '{}'::jsonb) FROM jsonb_each(data->'customHeaders')))
       WHERE kind = 'context-brokers' AND jsonb_typeof(data->'customHeaders') = 'object'
         AND EXISTS (SELECT 1 FROM jsonb_each(data->'customHeaders') WHERE jsonb_typeof(value) = 'string');
      UPDATE records SET data = data - 'customHeaders'
       WHERE kind = 'context-brokers' AND data->'customHeaders' IN ('{}'::jsonb, 'null'::jsonb);
      ALTER TABLE records ENABLE TRIGGER records_create_event;
      UPDATE audit_events
         SET created = jsonb_set(created, '{customHeaders}', (SELECT coalesce(jsonb_object_agg(key, '{"set": true}'::jsonb), '{}'::jsonb) FROM jsonb_each(created->'customHeaders')))
       WHERE kind = 'context-brokers' AND jsonb_typeof(created->'customHeaders') = 'object';
      UPDATE audit_events
         SET changes = (
           SELECT jsonb_agg(
                    CASE WHEN c->>'field' = 'customHeaders' THEN
                      (c - 'before' - 'after')
                      || CASE WHEN jsonb_typeof(c->'before') = 'object'
                              THEN jsonb_build_object('before', (SELECT coalesce(jsonb_object_agg(key, '{"set": true}'::jsonb), '{}'::jsonb) FROM jsonb_each(c->'before'))) ELSE '{}'::jsonb END
                      || CASE WHEN jsonb_typeof(c->'after') = 'object'
                              THEN jsonb_build_object('after', (SELECT coalesce(jsonb_object_agg(key, '{"set": true}'::jsonb), '{}'::jsonb) FROM jsonb_each(c->'after'))) ELSE '{}'::jsonb END
                    ELSE c END ORDER BY n)
             FROM jsonb_array_elements(changes) WITH ORDINALITY AS e(c, n))
       WHERE kind = 'context-brokers' AND jsonb_typeof(changes) = 'array'
         AND changes @> '[{"field": "customHeaders"}]'::jsonb
    `,
  },
  {
    // The audit trail is append-only in the database too, not only through the API: UPDATE, TRUNCATE
    // and DELETE on audit_events are refused, except the retention's own deletes (apps/api/src/audit:
    // its transaction sets orrery.audit_prune_before to its cutoff, and only events older than that
    // cutoff and than a day, the shortest retention, go). The trigger of 0018 no longer lets anyone
    // clear a create's event kept on its record's row: only the retention, the same way; any other
    // update that clears it moves the event to audit_events first, as any change of the row does.
    // (A role that owns the tables can still drop a trigger: docs/deploy.md says how to keep the API's
    // role from it.)
    name: "0022_audit_append_only",
    sql: `
      CREATE FUNCTION audit_prune_cutoff() RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
      DECLARE
        cutoff text := current_setting('orrery.audit_prune_before', true);
      BEGIN
        IF cutoff IS NULL OR cutoff = '' THEN
          RETURN NULL;
        END IF;
        RETURN least(cutoff::timestamptz, now() - interval '1 day');
      END $$;
      CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND OLD.at < audit_prune_cutoff() THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'the audit trail is append-only: % of audit_events refused', TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $$;
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
      CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
        FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
      CREATE OR REPLACE FUNCTION records_keep_create_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND NEW.created_event IS NULL AND OLD.created_at < audit_prune_cutoff() THEN
          RETURN NEW;
        END IF;
        -- The event as audit_kept_creates reads it (the row is not changed yet).
        INSERT INTO audit_events (id, at, subject, username, provider, action, kind, record_id, title,
                                  workspace_id, outcome, changes, created, detail)
          OVERRIDING SYSTEM VALUE
          SELECT * FROM audit_kept_creates WHERE record_id = OLD.id;
        IF TG_OP = 'DELETE' THEN
          RETURN OLD;
        END IF;
        NEW.created_event := NULL;
        NEW.created_by := NULL;
        RETURN NEW;
      END $$
    `,
  },
  {
    // A role says synchronised only while its policy in the registry (iSHARE) or the PAP (FDSC) is
    // what the role would write now. Every change that alters that policy resets the flag, in the
    // transaction of the change and whatever route makes it (a kind's CRUD, the data-service-actions
    // views, an import): an access added, removed or moved; its data service's entity type or data
    // actions; that type's or a used action's name; the role's roleName, dates, data service
    // provider or credential type. A synchronised role then also says it was changed since
    // (changedSinceSynchronization), which the role page shows; a synchronisation clears both.
    // Only synchronised roles are touched: a role never synchronised has nothing to go stale.
    name: "0023_role_policy_changes",
    sql: `
      CREATE FUNCTION records_role_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        reset constant jsonb := '{"synchronized": false, "changedSinceSynchronization": true}';
        role_ids text[];
      BEGIN
        IF TG_OP = 'UPDATE' AND NEW.kind = 'roles' THEN
          IF (OLD.data->'synchronized') = 'true'::jsonb AND (
               -- (a roleName given to a role from before roleName, by 0010, is the name it had)
               (OLD.data ? 'roleName' AND NEW.data->'roleName' IS DISTINCT FROM OLD.data->'roleName')
            OR NEW.data->'notBefore' IS DISTINCT FROM OLD.data->'notBefore'
            OR NEW.data->'notOnOrAfter' IS DISTINCT FROM OLD.data->'notOnOrAfter'
            OR NEW.data->'dataServiceProviderId' IS DISTINCT FROM OLD.data->'dataServiceProviderId'
            OR NEW.data->'verifiableCredentialType' IS DISTINCT FROM OLD.data->'verifiableCredentialType') THEN
            NEW.data := NEW.data || reset;
          END IF;
          RETURN NEW;
        END IF;
        IF TG_OP = 'INSERT' THEN
          role_ids := ARRAY[NEW.data->>'hasRole'];
        ELSIF TG_OP = 'DELETE' THEN
          role_ids := ARRAY[OLD.data->>'hasRole'];
        ELSIF NEW.kind = 'data-service-accesses' THEN
          IF NEW.data->'hasRole' IS DISTINCT FROM OLD.data->'hasRole'
             OR NEW.data->'hasDataService' IS DISTINCT FROM OLD.data->'hasDataService' THEN
            role_ids := ARRAY[OLD.data->>'hasRole', NEW.data->>'hasRole'];
          END IF;
        ELSIF NEW.kind = 'data-services' THEN
          IF NEW.data->'hasEntityType' IS DISTINCT FROM OLD.data->'hasEntityType'
             OR NOT (coalesce(NEW.data->'hasDataActions', '[]') @> coalesce(OLD.data->'hasDataActions', '[]')
                 AND coalesce(OLD.data->'hasDataActions', '[]') @> coalesce(NEW.data->'hasDataActions', '[]')) THEN
            SELECT array_agg(a.data->>'hasRole') INTO role_ids FROM records a
              WHERE a.kind = 'data-service-accesses' AND a.data @> jsonb_build_object('hasDataService', NEW.id);
          END IF;
        ELSIF NEW.name IS DISTINCT FROM OLD.name THEN
          -- An entity type or a data action renamed: the roles whose data services use it.
          SELECT array_agg(a.data->>'hasRole') INTO role_ids FROM records a
            JOIN records s ON s.kind = 'data-services' AND s.id = a.data->>'hasDataService'
            WHERE a.kind = 'data-service-accesses'
              AND CASE WHEN NEW.kind = 'types' THEN s.data @> jsonb_build_object('hasEntityType', NEW.id)
                       ELSE s.data @> jsonb_build_object('hasDataActions', jsonb_build_array(NEW.id)) END;
        END IF;
        IF role_ids IS NOT NULL THEN
          UPDATE records SET data = data || reset
            WHERE kind = 'roles' AND id = ANY (role_ids) AND (data->'synchronized') = 'true'::jsonb;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER records_role_policy_role BEFORE UPDATE ON records
        FOR EACH ROW WHEN (NEW.kind = 'roles') EXECUTE FUNCTION records_role_policy_changed();
      CREATE TRIGGER records_role_policy_access_added AFTER INSERT ON records
        FOR EACH ROW WHEN (NEW.kind = 'data-service-accesses') EXECUTE FUNCTION records_role_policy_changed();
      CREATE TRIGGER records_role_policy_access_removed AFTER DELETE ON records
        FOR EACH ROW WHEN (OLD.kind = 'data-service-accesses') EXECUTE FUNCTION records_role_policy_changed();
      CREATE TRIGGER records_role_policy_used AFTER UPDATE ON records
        FOR EACH ROW WHEN (NEW.kind IN ('data-service-accesses', 'data-services', 'types', 'data-actions'))
        EXECUTE FUNCTION records_role_policy_changed()
      `,
  },
  {
    // Names as people read them (issues 36 and 37): a role, a data service, a thing description or
    // a broker client named "stock ANALYST " beside "Stock analyst" is the same name, so their
    // unique indexes compare names without case, and names are kept without surrounding spaces
    // (@orrery/model's normalize trims them on every write). Existing names are trimmed; names that
    // now clash get a numbered suffix ("_2"), or a piece of their id when that clashes too, as 0013
    // did. A contract's stakeholder DID is no longer unique: the spec has no such rule, and the
    // original console, which cannot delete a contract, left its user stuck on the 409.
    name: "0025_names_without_case",
    sql: `
      UPDATE records SET name = regexp_replace(name, '^\\s+|\\s+$', '', 'g'),
                         data = jsonb_set(data, '{name}', to_jsonb(regexp_replace(name, '^\\s+|\\s+$', '', 'g'))),
                         version = version + 1, updated_at = now()
        WHERE jsonb_typeof(data->'name') = 'string' AND name ~ '^\\s|\\s$'
          AND regexp_replace(name, '^\\s+|\\s+$', '', 'g') <> '';
      CREATE TEMPORARY TABLE caseless_names ON COMMIT DROP AS
        SELECT id, false AS renamed FROM records
        WHERE kind IN ('roles', 'data-services', 'wot-thing-descriptions', 'broker-clients') AND name <> '';
      WITH renamed AS (
        UPDATE records r SET name = left(r.name, 90) || '_' || d.n,
                             data = jsonb_set(r.data, '{name}', to_jsonb(left(r.name, 90) || '_' || d.n)),
                             version = r.version + 1, updated_at = now()
          FROM (SELECT r.id, row_number() OVER (
                  PARTITION BY r.kind, r.workspace_id, lower(r.name) ORDER BY r.created_at, r.id) AS n
                FROM records r JOIN caseless_names c ON c.id = r.id) d
          WHERE r.id = d.id AND d.n > 1
          RETURNING r.id)
      UPDATE caseless_names c SET renamed = true FROM renamed WHERE c.id = renamed.id;
      UPDATE records r SET name = left(r.name, 90) || '_' || left(md5(r.id), 8),
                           data = jsonb_set(r.data, '{name}', to_jsonb(left(r.name, 90) || '_' || left(md5(r.id), 8))),
                           version = r.version + 1, updated_at = now()
        FROM (SELECT r.id, row_number() OVER (
                PARTITION BY r.kind, r.workspace_id, lower(r.name) ORDER BY c.renamed, r.created_at, r.id) AS n
              FROM records r JOIN caseless_names c ON c.id = r.id) d
        WHERE r.id = d.id AND d.n > 1;
      DROP INDEX records_unique_named_role;
      CREATE UNIQUE INDEX records_unique_named_role ON records (workspace_id, lower(name)) WHERE kind = 'roles';
      DROP INDEX records_unique_data_service_name;
      CREATE UNIQUE INDEX records_unique_data_service_name
        ON records (workspace_id, lower(name)) WHERE kind = 'data-services' AND name <> '';
      DROP INDEX records_unique_thing_description_name;
      CREATE UNIQUE INDEX records_unique_thing_description_name
        ON records (workspace_id, lower(name)) WHERE kind = 'wot-thing-descriptions';
      DROP INDEX records_unique_broker_client_name;
      CREATE UNIQUE INDEX records_unique_broker_client_name ON records (lower(name)) WHERE kind = 'broker-clients';
      DROP INDEX records_unique_contract_stakeholder
    `,
  },
  {
    // A list of 10,000 as the database has it ready (issue 38). Each record keeps `list_item`: the
    // JSON text of the record as a list shows it (its id, its data, its workspace as hasWorkspace),
    // which a list joins as it is (Records.listJson) instead of building and printing a jsonb object
    // per row (two thirds of the list's time). Kept by the database itself on every write that
    // changes the data, whatever makes it (the API's statements, the triggers that reset a role's
    // synchronisation, later migrations): the trigger fires last of the BEFORE UPDATE triggers
    // (they fire by name), after those that change NEW.data. The API's batched creates write it in
    // their INSERT (the trigger's WHEN is then false). Not in the Drizzle schema: a read of whole
    // rows does not fetch it.
    //
    // And empty lists stored as `[]`: the API wrote a record without its empty list fields
    // (normalize drops empty values) and every read added them back, at a cost to each list. Records
    // now keep them on write (apps/api/src/resources/records.ts, withEmptyLists); the rows written
    // before get them here: the list fields of the model as it is now, written out (a migration never
    // changes with the model). The version stays (the data as read is the same, an ETag a client
    // holds still matches); the create events kept on their rows (0018) stay there (the trigger
    // that would move them is off meanwhile). Written to run again harmlessly (a test does).
    //
    // And the records' version (resources/list-cache.ts): one counter that a transaction writing
    // records raises once, as it commits (a deferred trigger: its lock is the last the transaction
    // takes, so two writers cannot deadlock on it, and it is held only while committing); the API
    // keeps a list while the version stays, whichever process wrote.
    name: "0026_list_items_stored",
    sql: `
      ALTER TABLE records ADD COLUMN IF NOT EXISTS list_item text;
      CREATE OR REPLACE FUNCTION records_list_item() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.list_item := (jsonb_build_object('id', NEW.id) || NEW.data
          || CASE WHEN NEW.workspace_id <> '' THEN jsonb_build_object('hasWorkspace', NEW.workspace_id)
                  ELSE '{}'::jsonb END)::text;
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS records_with_list_item_new ON records;
      CREATE TRIGGER records_with_list_item_new BEFORE INSERT ON records
        FOR EACH ROW WHEN (NEW.list_item IS NULL) EXECUTE FUNCTION records_list_item();
      DROP TRIGGER IF EXISTS records_with_list_item ON records;
      CREATE TRIGGER records_with_list_item BEFORE UPDATE ON records
        FOR EACH ROW WHEN (NEW.data IS DISTINCT FROM OLD.data OR NEW.workspace_id IS DISTINCT FROM OLD.workspace_id
                           OR NEW.id IS DISTINCT FROM OLD.id OR NEW.list_item IS NULL)
        EXECUTE FUNCTION records_list_item();
      ALTER TABLE records DISABLE TRIGGER records_create_event;
      UPDATE records SET data = '{"temporalServices": []}'::jsonb || data
       WHERE kind IN ('workspaces', 'properties') AND NOT data ? 'temporalServices';
      UPDATE records SET data = '{"hasProperties": [], "hasDataActions": []}'::jsonb || data
       WHERE kind = 'data-services' AND NOT (data ? 'hasProperties' AND data ? 'hasDataActions');
      UPDATE records SET data = '{"tenants": []}'::jsonb || data
       WHERE kind = 'broker-clients' AND NOT data ? 'tenants';
      UPDATE records SET list_item = (jsonb_build_object('id', id) || data
          || CASE WHEN workspace_id <> '' THEN jsonb_build_object('hasWorkspace', workspace_id) ELSE '{}'::jsonb END)::text
       WHERE list_item IS NULL;
      ALTER TABLE records ENABLE TRIGGER records_create_event;
      CREATE TABLE IF NOT EXISTS records_version (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        version bigint NOT NULL
      );
      INSERT INTO records_version (version) VALUES (0) ON CONFLICT DO NOTHING;
      CREATE OR REPLACE FUNCTION records_version_raised() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('orrery.records_version_raised', true) IS DISTINCT FROM 'yes' THEN
          PERFORM set_config('orrery.records_version_raised', 'yes', true);
          UPDATE records_version SET version = version + 1;
        END IF;
        RETURN NULL;
      END $$;
      DROP TRIGGER IF EXISTS records_version_raised ON records;
      CREATE CONSTRAINT TRIGGER records_version_raised AFTER INSERT OR UPDATE OR DELETE ON records
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION records_version_raised();
      DROP TRIGGER IF EXISTS records_version_truncated ON records;
      CREATE TRIGGER records_version_truncated AFTER TRUNCATE ON records
        FOR EACH STATEMENT EXECUTE FUNCTION records_version_raised()
    `,
  },
  {
    // A list's text kept on every row cost every write (PGlite: 14% of a batched insert, measured
    // by turns) for the first list after a write only: the lists are kept whole while no record
    // changes (resources/list-cache.ts), and the database builds a list's text when it reads it.
    name: "0027_list_items_built_on_read",
    sql: `
      DROP TRIGGER IF EXISTS records_with_list_item_new ON records;
      DROP TRIGGER IF EXISTS records_with_list_item ON records;
      DROP FUNCTION IF EXISTS records_list_item();
      ALTER TABLE records DROP COLUMN IF EXISTS list_item
    `,
  },
];

/** A migration's statements: split at each `;`, except inside a $$-quoted function body. */
function statementsOf(text: string): string[] {
  const statements: string[] = [];
  let current = "";
  for (const part of text.split(";")) {
    current = current ? `${current};${part}` : part;
    if ((current.split("$$").length - 1) % 2) continue;
    if (current.trim()) statements.push(current.trim());
    current = "";
  }
  return statements;
}

export async function migrate(db: Database): Promise<void> {
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS orrery_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  // One process migrates at a time when several start together on one PostgreSQL.
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(4242001)`);
    // The records' version (0026) is raised by a deferred trigger: at once here, or a migration
    // that writes records could not ALTER the table after ("pending trigger events").
    await tx.execute(sql`SET CONSTRAINTS ALL IMMEDIATE`);
    const done = await tx.execute(sql`SELECT name FROM orrery_migrations`);
    const applied = new Set(rowsOf<{ name: string }>(done).map((r) => r.name));
    // The embedded NGSI-LD broker's tables come after the API's own, in the same transaction and lock.
    for (const m of [...migrations, ...brokerMigrations]) {
      if (applied.has(m.name)) continue;
      for (const statement of statementsOf(m.sql)) await tx.execute(sql.raw(statement));
      await tx.execute(sql`INSERT INTO orrery_migrations (name) VALUES (${m.name})`);
    }
  });
}
