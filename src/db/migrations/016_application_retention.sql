-- Applications SDKs made are forgotten when no SDK has reported them for a while (a public
-- frontend token can name any number of them); an application an Admin saved through
-- `POST /api/admin/metrics/applications/:appName` is kept until an Admin deletes it, as Unleash
-- keeps the applications its admin API made. Before this column, an application with a
-- description, link, colour or icon, or made by anyone but an SDK token, was an Admin's.
ALTER TABLE client_applications ADD COLUMN saved_by_admin boolean NOT NULL DEFAULT false;

UPDATE client_applications a SET saved_by_admin = true
 WHERE a.description IS NOT NULL OR a.url IS NOT NULL OR a.color IS NOT NULL OR a.icon IS NOT NULL
    OR (a.created_by IS DISTINCT FROM 'sdk'
        AND NOT EXISTS (SELECT 1 FROM api_tokens t
                         WHERE t.token_name = a.created_by AND t.type IN ('client', 'frontend')));

-- Retention finds the applications not seen for long without reading every row.
CREATE INDEX client_applications_last_seen ON client_applications ((COALESCE(seen_at, created_at)))
  WHERE NOT saved_by_admin;
