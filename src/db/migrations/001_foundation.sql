-- Foundation: projects and environments (referenced by tokens and grants), roles and permissions,
-- users and their credentials, audit events, and the seed data every new database starts with.

CREATE TABLE projects (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text,
  mode text NOT NULL DEFAULT 'open',
  default_stickiness text NOT NULL DEFAULT 'default',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);

CREATE TABLE environments (
  name text PRIMARY KEY,
  type text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  protected boolean NOT NULL DEFAULT false,
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE project_environments (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment_name text NOT NULL REFERENCES environments (name) ON DELETE CASCADE,
  PRIMARY KEY (project_id, environment_name)
);

CREATE TABLE permissions (
  name text PRIMARY KEY,
  display_name text NOT NULL,
  -- root: instance-wide; project: inside one project; environment: inside one project and environment
  type text NOT NULL CHECK (type IN ('root', 'project', 'environment'))
);

CREATE TABLE roles (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  type text NOT NULL CHECK (type IN ('root', 'project', 'root-custom', 'custom')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE role_permissions (
  role_id integer NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  permission text NOT NULL REFERENCES permissions (name) ON DELETE CASCADE,
  -- '' means every environment
  environment text NOT NULL DEFAULT '',
  PRIMARY KEY (role_id, permission, environment)
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  username text,
  email text,
  name text,
  image_url text,
  password_hash text,
  root_role_id integer NOT NULL REFERENCES roles (id),
  login_attempts integer NOT NULL DEFAULT 0,
  seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (username IS NOT NULL OR email IS NOT NULL)
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE user_password_history (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_password_history_user ON user_password_history (user_id, id DESC);

CREATE TABLE groups (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  description text,
  mappings_sso jsonb NOT NULL DEFAULT '[]',
  root_role_id integer REFERENCES roles (id),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE group_user (
  group_id integer NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_by text,
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_user_user ON group_user (user_id);

-- Project roles granted to users and groups, one row per (role, holder, project).
CREATE TABLE role_user (
  role_id integer NOT NULL REFERENCES roles (id),
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  project text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (role_id, user_id, project)
);
CREATE INDEX role_user_user ON role_user (user_id);

CREATE TABLE group_role (
  role_id integer NOT NULL REFERENCES roles (id),
  group_id integer NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  project text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (role_id, group_id, project)
);
CREATE INDEX group_role_group ON group_role (group_id);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE api_tokens (
  id serial PRIMARY KEY,
  secret_hash text NOT NULL UNIQUE,
  -- the part of the secret before the random part (`project:environment.`), safe to show
  secret_prefix text NOT NULL,
  token_name text NOT NULL,
  type text NOT NULL CHECK (type IN ('admin', 'client', 'frontend')),
  environment text NOT NULL,
  projects text[] NOT NULL,
  alias text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  seen_at timestamptz
);

CREATE TABLE personal_access_tokens (
  id serial PRIMARY KEY,
  secret_hash text NOT NULL UNIQUE,
  description text NOT NULL,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  seen_at timestamptz,
  UNIQUE (user_id, description)
);

CREATE TABLE reset_tokens (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX reset_tokens_user ON reset_tokens (user_id);

CREATE TABLE user_feedback (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  feedback_id text NOT NULL,
  given timestamptz,
  never_show boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, feedback_id)
);

CREATE TABLE events (
  id bigserial PRIMARY KEY,
  type text NOT NULL,
  created_by text NOT NULL,
  created_by_user_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  project text,
  feature_name text,
  environment text,
  data jsonb,
  pre_data jsonb
);
CREATE INDEX events_type ON events (type, id DESC);
CREATE INDEX events_project ON events (project, id DESC);
CREATE INDEX events_feature ON events (feature_name, id DESC);

CREATE TABLE strategies (
  name text PRIMARY KEY,
  title text,
  description text,
  parameters jsonb NOT NULL DEFAULT '[]',
  built_in boolean NOT NULL DEFAULT false,
  deprecated boolean NOT NULL DEFAULT false,
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE context_fields (
  name text PRIMARY KEY,
  description text,
  sort_order integer NOT NULL DEFAULT 10,
  legal_values jsonb NOT NULL DEFAULT '[]',
  stickiness boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz
);

CREATE TABLE tag_types (
  name text PRIMARY KEY,
  description text,
  icon text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE feature_types (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text,
  lifetime_days integer
);

-- Seed data ----------------------------------------------------------------------------------

INSERT INTO projects (id, name, description) VALUES ('default', 'Default', 'Default project');

INSERT INTO environments (name, type, sort_order) VALUES
  ('development', 'development', 100),
  ('production', 'production', 200);

INSERT INTO project_environments (project_id, environment_name) VALUES
  ('default', 'development'),
  ('default', 'production');

INSERT INTO permissions (name, display_name, type) VALUES
  ('ADMIN', 'Administrator', 'root'),
  ('CREATE_PROJECT', 'Create projects', 'root'),
  ('CREATE_CONTEXT_FIELD', 'Create context fields', 'root'),
  ('UPDATE_CONTEXT_FIELD', 'Update context fields', 'root'),
  ('DELETE_CONTEXT_FIELD', 'Delete context fields', 'root'),
  ('CREATE_SEGMENT', 'Create segments', 'root'),
  ('UPDATE_SEGMENT', 'Edit segments', 'root'),
  ('DELETE_SEGMENT', 'Delete segments', 'root'),
  ('UPDATE_APPLICATION', 'Update applications', 'root'),
  ('CREATE_ROLE', 'Create roles', 'root'),
  ('UPDATE_ROLE', 'Update roles', 'root'),
  ('DELETE_ROLE', 'Delete roles', 'root'),
  ('UPDATE_INSTANCE_BANNERS', 'Change instance banners', 'root'),
  ('READ_CLIENT_API_TOKEN', 'Read client API tokens', 'root'),
  ('CREATE_CLIENT_API_TOKEN', 'Create client API tokens', 'root'),
  ('DELETE_CLIENT_API_TOKEN', 'Delete client API tokens', 'root'),
  ('READ_FRONTEND_API_TOKEN', 'Read frontend API tokens', 'root'),
  ('CREATE_FRONTEND_API_TOKEN', 'Create frontend API tokens', 'root'),
  ('DELETE_FRONTEND_API_TOKEN', 'Delete frontend API tokens', 'root'),
  ('CREATE_TAG_TYPE', 'Create tag types', 'root'),
  ('UPDATE_TAG_TYPE', 'Update tag types', 'root'),
  ('DELETE_TAG_TYPE', 'Delete tag types', 'root'),
  ('CREATE_ADDON', 'Create addons', 'root'),
  ('UPDATE_ADDON', 'Update addons', 'root'),
  ('DELETE_ADDON', 'Delete addons', 'root'),
  ('CREATE_FEATURE', 'Create feature flags', 'project'),
  ('UPDATE_FEATURE', 'Update feature flags', 'project'),
  ('DELETE_FEATURE', 'Archive feature flags', 'project'),
  ('MOVE_FEATURE_TOGGLE', 'Move feature flags to another project', 'project'),
  ('UPDATE_PROJECT', 'Update the project and its access', 'project'),
  ('DELETE_PROJECT', 'Delete the project', 'project'),
  ('CREATE_FEATURE_STRATEGY', 'Create activation strategies', 'environment'),
  ('UPDATE_FEATURE_STRATEGY', 'Update activation strategies', 'environment'),
  ('DELETE_FEATURE_STRATEGY', 'Remove activation strategies', 'environment'),
  ('UPDATE_FEATURE_ENVIRONMENT', 'Enable and disable flags', 'environment'),
  ('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'Change variants', 'environment');

INSERT INTO roles (id, name, description, type) VALUES
  (1, 'Admin', 'Users with the root role Admin can do everything.', 'root'),
  (2, 'Editor', 'Users with the root role Editor can change features and their configuration in every project, and create projects.', 'root'),
  (3, 'Viewer', 'Users with the root role Viewer can read everything but change nothing.', 'root'),
  (4, 'Owner', 'Project owners can do everything in their project, including granting access to it.', 'project'),
  (5, 'Member', 'Project members can create and change the features of the project.', 'project');
-- custom roles get ids from 6 up
SELECT setval(pg_get_serial_sequence('roles', 'id'), 5);

INSERT INTO role_permissions (role_id, permission) VALUES (1, 'ADMIN');

INSERT INTO role_permissions (role_id, permission)
SELECT 2, name FROM permissions
WHERE type IN ('project', 'environment') AND name NOT IN ('UPDATE_PROJECT', 'DELETE_PROJECT')
   OR name IN (
     'CREATE_PROJECT', 'CREATE_CONTEXT_FIELD', 'UPDATE_CONTEXT_FIELD', 'DELETE_CONTEXT_FIELD',
     'CREATE_SEGMENT', 'UPDATE_SEGMENT', 'DELETE_SEGMENT', 'UPDATE_APPLICATION',
     'READ_CLIENT_API_TOKEN', 'CREATE_CLIENT_API_TOKEN', 'DELETE_CLIENT_API_TOKEN',
     'READ_FRONTEND_API_TOKEN', 'CREATE_FRONTEND_API_TOKEN', 'DELETE_FRONTEND_API_TOKEN',
     'CREATE_TAG_TYPE', 'UPDATE_TAG_TYPE', 'DELETE_TAG_TYPE',
     'CREATE_ADDON', 'UPDATE_ADDON', 'DELETE_ADDON');

INSERT INTO role_permissions (role_id, permission)
SELECT 4, name FROM permissions WHERE type IN ('project', 'environment');

INSERT INTO role_permissions (role_id, permission)
SELECT 5, name FROM permissions
WHERE type IN ('project', 'environment') AND name NOT IN ('MOVE_FEATURE_TOGGLE', 'UPDATE_PROJECT', 'DELETE_PROJECT');

INSERT INTO strategies (name, title, description, parameters, built_in, sort_order) VALUES
  ('flexibleRollout', 'Gradual rollout',
   'Turns the flag on for a percentage of users, sessions or random requests, the same ones every time.',
   '[{"name":"rollout","type":"percentage","description":"Share of the audience that gets the flag","required":false},
     {"name":"stickiness","type":"string","description":"Context field that keeps a user in or out","required":true},
     {"name":"groupId","type":"string","description":"Flags with the same group id reach the same users","required":true}]',
   true, 0),
  ('default', 'Standard', 'On for everyone in the environment.', '[]', true, 1),
  ('userWithId', 'User IDs', 'On for the listed user ids.',
   '[{"name":"userIds","type":"list","description":"User ids the flag is on for","required":false}]', true, 2),
  ('applicationHostname', 'Hosts', 'On for applications running on the listed host names.',
   '[{"name":"hostNames","type":"list","description":"Host names the flag is on for","required":false}]', true, 3),
  ('remoteAddress', 'IPs', 'On for requests from the listed IP addresses.',
   '[{"name":"IPs","type":"list","description":"IP addresses the flag is on for","required":true}]', true, 4);

INSERT INTO context_fields (name, description, sort_order, stickiness) VALUES
  ('environment', 'The environment the application runs in', 0, false),
  ('userId', 'The id of the signed-in user', 1, false),
  ('appName', 'The name of the application', 2, false),
  ('currentTime', 'The time of the evaluation, for date constraints', 3, false),
  ('sessionId', 'The id of the session', 4, true);

INSERT INTO tag_types (name, description, icon) VALUES ('simple', 'A plain tag for filtering flags', '#');

INSERT INTO feature_types (id, name, description, lifetime_days) VALUES
  ('release', 'Release', 'Ships work that is not finished or not yet meant for everyone', 40),
  ('experiment', 'Experiment', 'Compares variants, e.g. in an A/B test', 40),
  ('operational', 'Operational', 'Switches a technical behaviour during a migration or incident', 7),
  ('kill-switch', 'Kill switch', 'Turns a feature off when it misbehaves', NULL),
  ('permission', 'Permission', 'Gives some users access to a feature', NULL);

-- Every permission a user holds: their root role, the root roles of their groups, and the project
-- roles granted to them or to their groups (project NULL = everywhere, environment '' = every one).
-- Asked on every authenticated request; as a PL/pgSQL function its plan is prepared once per
-- connection instead of planning this four-way union each time.
CREATE FUNCTION user_grants(uid integer)
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
