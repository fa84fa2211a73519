-- Release templates of one project (Unleash 8.0.3+): offered in that project only, where their
-- strategies may use the project's segments. A template of no project serves every project.
ALTER TABLE release_plan_templates ADD COLUMN project text REFERENCES projects (id) ON DELETE CASCADE;

-- Names are unique among the templates in use of one scope: the instance's, or one project's.
DROP INDEX release_plan_templates_live_name;
CREATE UNIQUE INDEX release_plan_templates_live_name
  ON release_plan_templates ((coalesce(project, '')), name) WHERE archived_at IS NULL;
CREATE INDEX release_plan_templates_project ON release_plan_templates (project) WHERE project IS NOT NULL;

-- A project's Owners make, change, archive and delete its templates.
INSERT INTO permissions (name, display_name, type) VALUES
  ('UPDATE_PROJECT_RELEASE_TEMPLATE', 'Create, change, archive and delete the project''s release templates', 'project');
INSERT INTO role_permissions (role_id, permission) VALUES (4, 'UPDATE_PROJECT_RELEASE_TEMPLATE');
