-- A release plan: a template's milestones copied onto one environment of a flag (one plan there;
-- a second replaces the first). The started milestone's strategies are served to SDKs as the
-- environment's strategies besides its own, and shown with the plan, not among them. A plan is a
-- document, as its template is: milestones with their strategies, when each started, the
-- progression that starts the next one after an interval.
CREATE TABLE release_plans (
  id text PRIMARY KEY,
  feature_name text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  environment text NOT NULL REFERENCES environments (name) ON DELETE CASCADE,
  -- The template it was made from; the plan keeps its own copy, whatever becomes of the template.
  template_id text NOT NULL,
  name text NOT NULL,
  description text,
  milestones jsonb NOT NULL DEFAULT '[]',
  active_milestone_id text,
  created_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (feature_name, environment)
);

