-- Access control: role names unique whatever their case (roles are also looked up by name),
-- invite links (public signup tokens) and instance settings (OIDC).

CREATE UNIQUE INDEX roles_name_lower_key ON roles (lower(name));

-- Listing a project's access and counting who holds a role look these up by project and role.
CREATE INDEX role_user_project ON role_user (project);
CREATE INDEX group_role_project ON group_role (project);
CREATE INDEX groups_root_role ON groups (root_role_id) WHERE root_role_id IS NOT NULL;

-- The secret is the invite link itself and is shown to Admins in every read, so it is kept as is;
-- `id` names a token in audit events, which must not carry the secret.
CREATE TABLE public_signup_tokens (
  secret text PRIMARY KEY,
  id serial UNIQUE,
  name text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  expires_at timestamptz NOT NULL,
  role_id integer NOT NULL REFERENCES roles (id),
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX public_signup_tokens_created ON public_signup_tokens (created_at DESC);

CREATE TABLE public_signup_token_users (
  secret text NOT NULL REFERENCES public_signup_tokens (secret) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (secret, user_id)
);

-- One JSON record per setting name (e.g. the OIDC settings).
CREATE TABLE settings (
  name text PRIMARY KEY,
  content jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
