-- What SDKs report: the applications and their running instances, and usage counts per feature,
-- application, environment and hour. Plus a notification on every audit event, so other Flagpole
-- processes sharing this database learn of changes at once (they also poll).

CREATE TABLE client_applications (
  app_name text PRIMARY KEY,
  description text,
  url text,
  color text,
  icon text,
  sdk_version text,
  strategies jsonb NOT NULL DEFAULT '[]',
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  seen_at timestamptz
);

CREATE TABLE client_instances (
  app_name text NOT NULL REFERENCES client_applications (app_name) ON DELETE CASCADE,
  instance_id text NOT NULL,
  environment text NOT NULL DEFAULT 'default',
  sdk_version text,
  client_ip text,
  started_at timestamptz,
  interval_ms integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_name, environment, instance_id)
);

CREATE TABLE client_metrics_hourly (
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  app_name text NOT NULL,
  environment text NOT NULL,
  hour timestamptz NOT NULL,
  yes bigint NOT NULL DEFAULT 0,
  no bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (feature_name, hour, app_name, environment)
);

CREATE TABLE client_metrics_variants_hourly (
  feature_name text NOT NULL,
  app_name text NOT NULL,
  environment text NOT NULL,
  hour timestamptz NOT NULL,
  variant text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (feature_name, hour, app_name, environment, variant),
  FOREIGN KEY (feature_name, hour, app_name, environment)
    REFERENCES client_metrics_hourly (feature_name, hour, app_name, environment) ON DELETE CASCADE
);

CREATE FUNCTION notify_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('flagpole_revision', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER events_notify_revision AFTER INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION notify_revision();
