-- Event search: by who made a change (also how the list of event creators skips from one user to
-- the next), and by date.
CREATE INDEX events_created_by ON events (created_by_user_id, id DESC);
CREATE INDEX events_created_at ON events (created_at);
