-- Impact metrics: what SDKs measure in the application around a flag (counters, gauges,
-- histograms), sent with their usage metrics. A metric has series (one per set of labels), and a
-- series has a point per minute (kept two days) and per hour (kept half a year). Both are written
-- as reports come, so a chart or a safeguard of any range reads at most a few hundred points.
CREATE TABLE impact_metrics (
  name text PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('counter', 'gauge', 'histogram')),
  help text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE impact_metric_series (
  id bigserial PRIMARY KEY,
  metric text NOT NULL REFERENCES impact_metrics (name) ON DELETE CASCADE,
  labels jsonb NOT NULL,
  -- A hash of the labels' canonical text (sorted keys): what tells two series apart, short however
  -- long the labels are.
  labels_key text NOT NULL,
  -- The token that first reported it: each token may make only so many series.
  token text NOT NULL,
  -- A histogram's finite bucket bounds, ascending (its +Inf bucket is its count).
  bounds double precision[],
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (metric, labels_key)
);
CREATE INDEX impact_metric_series_token ON impact_metric_series (token);

-- A counter's increase in the period, a gauge's last value in it, a histogram's observations in
-- it (count, sum, and per finite bound how many were at most it).
CREATE TABLE impact_metric_minutes (
  series_id bigint NOT NULL REFERENCES impact_metric_series (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  value double precision NOT NULL DEFAULT 0,
  sum double precision,
  buckets double precision[],
  PRIMARY KEY (series_id, at)
);
CREATE INDEX impact_metric_minutes_at ON impact_metric_minutes (at);

CREATE TABLE impact_metric_hours (
  series_id bigint NOT NULL REFERENCES impact_metric_series (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  value double precision NOT NULL DEFAULT 0,
  sum double precision,
  buckets double precision[],
  PRIMARY KEY (series_id, at)
);
CREATE INDEX impact_metric_hours_at ON impact_metric_hours (at);

-- A saved chart: instance-wide, or of one flag. A safeguard's metric query is one of its flag's.
CREATE TABLE impact_metric_configs (
  id text PRIMARY KEY,
  feature_name text REFERENCES features (name) ON DELETE CASCADE,
  metric_name text NOT NULL,
  time_range text NOT NULL,
  aggregation_mode text NOT NULL,
  label_selectors jsonb NOT NULL DEFAULT '{}',
  y_axis_min text NOT NULL DEFAULT 'auto',
  title text,
  source text NOT NULL DEFAULT 'internal',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX impact_metric_configs_feature ON impact_metric_configs (feature_name);

-- A safeguard: when its metric query passes the threshold it pauses a release plan's progressions,
-- or switches a flag's environment off. Checked every minute by one process; `triggered_at` keeps
-- it from acting twice, `armed_at` is where the data it looks at begins (a trip, then a resume,
-- does not trip again on the data that tripped it).
CREATE TABLE safeguards (
  id text PRIMARY KEY,
  config_id text NOT NULL REFERENCES impact_metric_configs (id),
  release_plan_id text UNIQUE REFERENCES release_plans (id) ON DELETE CASCADE,
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  environment text NOT NULL REFERENCES environments (name) ON DELETE CASCADE,
  operator text NOT NULL CHECK (operator IN ('>', '<')),
  threshold double precision NOT NULL,
  armed_at timestamptz NOT NULL DEFAULT now(),
  triggered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One safeguard on a flag environment itself (besides the one of its plan).
CREATE UNIQUE INDEX safeguards_feature_environment ON safeguards (feature_name, environment)
  WHERE release_plan_id IS NULL;
