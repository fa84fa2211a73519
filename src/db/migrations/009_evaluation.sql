-- Feature dependencies, context fields of one project, and the permission to change dependencies.

-- A child feature is on only while its parent's condition holds. One parent per child (the key),
-- in the same project; a parent has no parent itself (the service keeps both rules).
CREATE TABLE feature_dependencies (
  child text PRIMARY KEY REFERENCES features (name) ON DELETE CASCADE,
  parent text NOT NULL REFERENCES features (name) ON DELETE CASCADE,
  -- false: the child needs the parent off
  enabled boolean NOT NULL DEFAULT true,
  -- the parent's variants, one of which it must resolve to; empty: any
  variants jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feature_dependencies_parent ON feature_dependencies (parent);

-- NULL: a field of the whole instance; otherwise only that project's constraints may use it.
ALTER TABLE context_fields ADD COLUMN project text REFERENCES projects (id) ON DELETE CASCADE;
CREATE INDEX context_fields_project ON context_fields (project) WHERE project IS NOT NULL;

INSERT INTO permissions (name, display_name, type) VALUES
  ('UPDATE_FEATURE_DEPENDENCY', 'Change feature dependencies', 'project');
-- As Unleash gives it: the Editor, and the Owner and Member project roles.
INSERT INTO role_permissions (role_id, permission) VALUES
  (2, 'UPDATE_FEATURE_DEPENDENCY'),
  (4, 'UPDATE_FEATURE_DEPENDENCY'),
  (5, 'UPDATE_FEATURE_DEPENDENCY');
