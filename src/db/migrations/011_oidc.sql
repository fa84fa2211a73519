-- Sign-in through OpenID Connect.

-- The ID token a session was started with, given back to the provider as `id_token_hint` when the
-- user signs out there too (single sign-out); null for sessions started with a password.
ALTER TABLE sessions ADD COLUMN id_token text;

-- Sign-ins sent to the provider and not yet back: what its answer to the callback must match. A row
-- is found by the hash of its `state` (the browser holds the state in a short-lived cookie), is
-- taken once (`used_at`) and is good for ten minutes.
CREATE TABLE oidc_logins (
  state_hash text PRIMARY KEY,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  redirect text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oidc_logins_expires_at ON oidc_logins (expires_at);
