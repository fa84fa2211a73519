-- API tokens of one project: who may read, create and delete them inside a project. The Editor
-- holds them everywhere (as it holds the other project permissions); Owners and Members in their
-- projects.
INSERT INTO permissions (name, display_name, type) VALUES
  ('READ_PROJECT_API_TOKEN', 'Read the API tokens of the project', 'project'),
  ('CREATE_PROJECT_API_TOKEN', 'Create API tokens for the project', 'project'),
  ('DELETE_PROJECT_API_TOKEN', 'Delete API tokens of the project', 'project');

INSERT INTO role_permissions (role_id, permission)
SELECT r.id, p.name
  FROM (VALUES (2), (4), (5)) AS r (id)
 CROSS JOIN (VALUES ('READ_PROJECT_API_TOKEN'), ('CREATE_PROJECT_API_TOKEN'), ('DELETE_PROJECT_API_TOKEN')) AS p (name);

-- A project's tokens (`projects @> ARRAY[…]`) and the tokens of one name.
CREATE INDEX api_tokens_projects ON api_tokens USING gin (projects);
CREATE INDEX api_tokens_name ON api_tokens (token_name);
