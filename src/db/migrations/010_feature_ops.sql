-- What the feature operations of scripts and the admin UI keep: each feature's lifecycle stages and
-- links (features/), each user's favorite features and projects (favorites/), and the strategy a
-- project gives a feature switched on in one of its environments without any (projects/).

-- One row per stage a feature has entered: initial (created), pre-live (SDKs reported it),
-- live (reported from a production environment where it is on), completed (by hand, with a status),
-- archived. Reviving a feature starts it over from initial.
CREATE TABLE feature_lifecycles (
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  stage text NOT NULL CHECK (stage IN ('initial', 'pre-live', 'live', 'completed', 'archived')),
  -- completed only: kept or discarded, and a free text saying what was kept
  status text CHECK (status IS NULL OR status IN ('kept', 'discarded')),
  status_value text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (feature_name, stage)
);
CREATE INDEX feature_lifecycles_created ON feature_lifecycles (created_at);

-- The features there are already started when they were made, and archived ones when archived.
INSERT INTO feature_lifecycles (feature_name, stage, created_at)
SELECT name, 'initial', created_at FROM features;
INSERT INTO feature_lifecycles (feature_name, stage, created_at)
SELECT name, 'archived', archived_at FROM features WHERE archived_at IS NOT NULL;

CREATE TABLE feature_links (
  id text PRIMARY KEY,
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  url text NOT NULL,
  title text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feature_links_feature ON feature_links (feature_name, created_at);

CREATE TABLE favorite_features (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, feature_name)
);
CREATE INDEX favorite_features_feature ON favorite_features (feature_name);

CREATE TABLE favorite_projects (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  project text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, project)
);
CREATE INDEX favorite_projects_project ON favorite_projects (project);

-- A strategy as POST .../default-strategy stores it: { name, title, disabled, parameters,
-- constraints, variants, segments }; a groupId left empty becomes the feature's name when applied.
ALTER TABLE project_environments ADD COLUMN default_strategy jsonb;

-- A project's recent activity (its status and overview) counts its events by time.
CREATE INDEX events_project_created ON events (project, created_at);

-- The personal dashboard lists the features a user created.
CREATE INDEX features_created_by ON features (created_by_user_id) WHERE archived_at IS NULL;
