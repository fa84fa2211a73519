-- Revisions that caches follow, ordered by commit. A transaction that changes the configuration
-- bumps `config` as its last statement: the row lock makes those transactions commit in the order
-- of their numbers, so a cache that has seen number N has seen every change up to N (an event id,
-- taken at INSERT, gave no such promise). `metrics` is bumped when SDK usage counts are written.

CREATE TABLE revisions (
  name text PRIMARY KEY,
  value bigint NOT NULL
);
INSERT INTO revisions (name, value) VALUES ('config', 0), ('metrics', 0);

-- What each configuration revision changed, so that a process catching up reloads only that.
-- Pruned after a while: a process further behind reloads everything.
CREATE TABLE config_changes (
  revision bigint PRIMARY KEY,
  -- features: the rows of the named features; segments; model: any other part of the flag
  -- configuration; identity: credentials, users, roles and grants
  scopes text[] NOT NULL,
  features text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every audit event used to notify; now only revision bumps do, and SDK activity no longer does.
DROP TRIGGER events_notify_revision ON events;
DROP FUNCTION notify_revision();

-- Retention prunes these by age.
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX reset_tokens_expires ON reset_tokens (expires_at);
CREATE INDEX client_instances_last_seen ON client_instances (last_seen);
CREATE INDEX client_metrics_hourly_hour ON client_metrics_hourly (hour);

-- A database migrated before 001 gained user_grants() (it was appended to that file after its
-- first release) lacks the function every authenticated request's grants come from.
CREATE OR REPLACE FUNCTION user_grants(uid integer)
RETURNS TABLE (permission text, project text, environment text)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT rp.permission, NULL::text, ''::text
      FROM users u JOIN role_permissions rp ON rp.role_id = u.root_role_id
     WHERE u.id = uid
    UNION
    SELECT rp.permission, NULL::text, ''::text
      FROM group_user gu
      JOIN groups g ON g.id = gu.group_id
      JOIN role_permissions rp ON rp.role_id = g.root_role_id
     WHERE gu.user_id = uid
    UNION
    SELECT rp.permission, ru.project, rp.environment
      FROM role_user ru JOIN role_permissions rp ON rp.role_id = ru.role_id
     WHERE ru.user_id = uid
    UNION
    SELECT rp.permission, gr.project, rp.environment
      FROM group_user gu
      JOIN group_role gr ON gr.group_id = gu.group_id
      JOIN role_permissions rp ON rp.role_id = gr.role_id
     WHERE gu.user_id = uid;
END
$$;
