-- Release templates: named, ordered milestones, each a set of strategies, that a flag environment's
-- release plan is made from. A template is a document: its milestones (with their strategies) are
-- kept in it whole, as a save replaces them whole.
CREATE TABLE release_plan_templates (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text,
  milestones jsonb NOT NULL DEFAULT '[]',
  created_by_user_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);

-- Names are unique among the templates in use; an archived one frees its name.
CREATE UNIQUE INDEX release_plan_templates_live_name ON release_plan_templates (name) WHERE archived_at IS NULL;

-- Root permissions, as in Unleash: Editors create and update templates; deleting and archiving
-- takes an Admin or a custom role.
INSERT INTO permissions (name, display_name, type) VALUES
  ('RELEASE_PLAN_TEMPLATE_CREATE', 'Create release templates', 'root'),
  ('RELEASE_PLAN_TEMPLATE_UPDATE', 'Update release templates', 'root'),
  ('RELEASE_PLAN_TEMPLATE_DELETE', 'Delete and archive release templates', 'root');

INSERT INTO role_permissions (role_id, permission) VALUES
  (2, 'RELEASE_PLAN_TEMPLATE_CREATE'),
  (2, 'RELEASE_PLAN_TEMPLATE_UPDATE');
