-- Change requests (four eyes), first their configuration: an environment of a project where
-- changes to flags must go through a change request, and how many approvals one needs. NULL: the
-- environment takes direct changes.
ALTER TABLE project_environments ADD COLUMN change_request_approvals integer
  CHECK (change_request_approvals BETWEEN 1 AND 10);

-- As in Unleash, no predefined role holds these: an Admin grants them through a custom role.
-- `UPDATE_PROJECT` includes reading and writing the configuration.
INSERT INTO permissions (name, display_name, type) VALUES
  ('PROJECT_CHANGE_REQUEST_READ', 'Read the change request configuration of the project', 'project'),
  ('PROJECT_CHANGE_REQUEST_WRITE', 'Change the change request configuration of the project', 'project'),
  ('APPROVE_CHANGE_REQUEST', 'Approve and reject change requests', 'environment'),
  ('APPLY_CHANGE_REQUEST', 'Apply and schedule change requests', 'environment'),
  ('SKIP_CHANGE_REQUEST', 'Change flags directly where change requests are required', 'environment');
