-- Change requests themselves: the changes a user collects for one environment of a project, the
-- review they go through and the approvals, rejections and comments they gather.
CREATE TABLE change_requests (
  id serial PRIMARY KEY,
  project text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment text NOT NULL REFERENCES environments (name) ON DELETE CASCADE,
  title text,
  state text NOT NULL DEFAULT 'Draft'
    CHECK (state IN ('Draft', 'In review', 'Approved', 'Scheduled', 'Applied', 'Cancelled', 'Rejected')),
  -- The approvals the environment asked for when the request was made: a later setting does not
  -- change what a request under review needs.
  min_approvals integer NOT NULL,
  -- When the request entered each state it has been in: { "In review": "2026-…", … }.
  state_timestamps jsonb NOT NULL DEFAULT '{}',
  created_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One draft per user, project and environment: the changes a user adds go to it.
CREATE UNIQUE INDEX change_requests_one_draft
  ON change_requests (created_by_user_id, project, environment) WHERE state = 'Draft';
CREATE INDEX change_requests_by_project ON change_requests (project, id DESC);

-- A change: the action and payload Unleash's change requests name, and what its target was when
-- it was added (`snapshot`), against which a later change of the target shows as a conflict. The
-- flag is a name only: it may be archived or deleted while the request waits.
CREATE TABLE change_request_changes (
  id serial PRIMARY KEY,
  change_request_id integer NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
  feature text,
  action text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  snapshot jsonb,
  created_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX change_request_changes_by_request ON change_request_changes (change_request_id, id);
CREATE INDEX change_request_changes_by_feature ON change_request_changes (feature) WHERE feature IS NOT NULL;

-- A review: an approval or a rejection by one user.
CREATE TABLE change_request_reviews (
  change_request_id integer NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  verdict text NOT NULL CHECK (verdict IN ('approved', 'rejected')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (change_request_id, user_id, verdict)
);

CREATE TABLE change_request_comments (
  id serial PRIMARY KEY,
  change_request_id integer NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
  text text NOT NULL,
  created_by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX change_request_comments_by_request ON change_request_comments (change_request_id, id);

-- The users the author asked to review it.
CREATE TABLE change_request_reviewers (
  change_request_id integer NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (change_request_id, user_id)
);
