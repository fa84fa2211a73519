-- Integrations (Unleash's addons), their deliveries, flags SDKs ask for that do not exist, and
-- which kind of SDK an instance is.

-- `parameters` holds what is not secret; the secret ones (the URL, the Authorization header, the
-- custom headers) are in `secrets`, one JSON text sealed with FLAGPOLE_SECRET_KEY when it is set
-- (`aes256gcm:…`), as it is otherwise (`plain:…`).
CREATE TABLE addons (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider text NOT NULL,
  description text,
  enabled boolean NOT NULL DEFAULT true,
  parameters jsonb NOT NULL DEFAULT '{}',
  secrets text NOT NULL,
  events jsonb NOT NULL DEFAULT '[]',
  projects jsonb NOT NULL DEFAULT '[]',
  environments jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per integration and audit event it listens to, queued in the transaction of the event:
-- a change that commits has its deliveries, one that rolls back has none. A process takes a due
-- row by moving `next_attempt_at` past the time the attempt may take (FOR UPDATE SKIP LOCKED, so
-- two processes never take the same one); a process dying meanwhile leaves it due again.
CREATE TABLE addon_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  addon_id integer NOT NULL REFERENCES addons (id) ON DELETE CASCADE,
  event_id bigint NOT NULL REFERENCES events (id),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'success', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  state_details text,
  details jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX addon_deliveries_due ON addon_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX addon_deliveries_finished ON addon_deliveries (addon_id, finished_at DESC, id DESC)
  WHERE state <> 'pending';

-- Flags SDKs reported usage of that no feature answers to, by application and environment.
CREATE TABLE unknown_flags (
  name text NOT NULL,
  app_name text NOT NULL,
  environment text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (name, app_name, environment)
);
CREATE INDEX unknown_flags_seen_at ON unknown_flags (seen_at);

-- 'backend' (the client API) or 'frontend' (the frontend API); null for instances seen before.
ALTER TABLE client_instances ADD COLUMN sdk_type text;
