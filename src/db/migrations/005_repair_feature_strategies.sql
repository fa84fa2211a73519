-- 002_feature_model.sql first gave feature_strategies a `project_name text NOT NULL` column; the file
-- was later edited to drop it (a strategy's project is its feature's), which databases migrated with
-- the original never saw. There the column is still required, and every new strategy fails to insert.
-- Applied migrations are append-only since, so the repair is a migration of its own.
ALTER TABLE feature_strategies DROP COLUMN IF EXISTS project_name;
