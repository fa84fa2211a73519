-- The feature model: features and their per-environment state, activation strategies with their
-- constraints and variants, segments, and tags.

CREATE TABLE features (
  name text PRIMARY KEY,
  project text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  description text,
  -- any string: Unleash does not hold the type to the list of feature types either
  type text NOT NULL DEFAULT 'release',
  stale boolean NOT NULL DEFAULT false,
  impression_data boolean NOT NULL DEFAULT false,
  archived_at timestamptz,
  created_by_user_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz
);
CREATE INDEX features_live_by_project ON features (project, name) WHERE archived_at IS NULL;

CREATE TABLE feature_environments (
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  environment text NOT NULL REFERENCES environments (name) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  -- the environment's variant list, weights fixed and sorted by name when stored
  variants jsonb NOT NULL DEFAULT '[]',
  last_seen_at timestamptz,
  PRIMARY KEY (feature_name, environment)
);
CREATE INDEX feature_environments_environment ON feature_environments (environment);

CREATE TABLE feature_strategies (
  id text PRIMARY KEY,
  -- the strategy's project is its feature's project (it moves with the feature)
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  environment text NOT NULL REFERENCES environments (name) ON DELETE CASCADE,
  strategy_name text NOT NULL REFERENCES strategies (name),
  title text,
  disabled boolean NOT NULL DEFAULT false,
  parameters jsonb NOT NULL DEFAULT '{}',
  constraints jsonb NOT NULL DEFAULT '[]',
  variants jsonb NOT NULL DEFAULT '[]',
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feature_strategies_feature ON feature_strategies (feature_name, environment, sort_order);

CREATE TABLE segments (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  description text,
  project text REFERENCES projects (id) ON DELETE CASCADE,
  constraints jsonb NOT NULL DEFAULT '[]',
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- No cascade from segments: a segment in use cannot be deleted (the service says which strategies use it).
CREATE TABLE feature_strategy_segments (
  feature_strategy_id text NOT NULL REFERENCES feature_strategies (id) ON DELETE CASCADE,
  segment_id integer NOT NULL REFERENCES segments (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (feature_strategy_id, segment_id)
);
CREATE INDEX feature_strategy_segments_segment ON feature_strategy_segments (segment_id);

CREATE TABLE tags (
  type text NOT NULL REFERENCES tag_types (name) ON DELETE CASCADE,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (type, value)
);

CREATE TABLE feature_tags (
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  tag_type text NOT NULL,
  tag_value text NOT NULL,
  created_by_user_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (feature_name, tag_type, tag_value),
  FOREIGN KEY (tag_type, tag_value) REFERENCES tags (type, value) ON DELETE CASCADE
);
CREATE INDEX feature_tags_tag ON feature_tags (tag_type, tag_value);
