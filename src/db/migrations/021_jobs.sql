-- Work to be done later, by whichever process gets to it first: a scheduled change request, a
-- milestone's progression, a safeguard's check. A job is claimed inside the transaction that does
-- its work (FOR UPDATE SKIP LOCKED): it commits with that work or not at all, so a process killed
-- while running one leaves it to the next, and no job runs twice.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  -- What it is about, within its kind (a change request's id): one job waits per kind and key.
  key text NOT NULL,
  run_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

CREATE UNIQUE INDEX jobs_waiting_key ON jobs (kind, key) WHERE state = 'pending';
CREATE INDEX jobs_due ON jobs (run_at) WHERE state = 'pending';
CREATE INDEX jobs_newest ON jobs (id DESC);

-- A change request scheduled to be applied at a time: `pending` until then; `suspended` when what
-- it changes changed meanwhile (or its scheduler went); `failed` when applying it failed.
ALTER TABLE change_requests
  ADD COLUMN scheduled_at timestamptz,
  ADD COLUMN schedule_status text CHECK (schedule_status IN ('pending', 'suspended', 'failed')),
  ADD COLUMN schedule_reason text,
  ADD COLUMN scheduled_by_user_id integer REFERENCES users (id) ON DELETE SET NULL;

CREATE INDEX change_requests_scheduled ON change_requests (id) WHERE state = 'Scheduled';
