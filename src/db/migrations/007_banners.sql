-- Instance banners: messages shown to every user of the admin UI. Ids come from the identity's
-- sequence, so a newer banner always has a higher id and a deleted one's id is never given again.

CREATE TABLE banners (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  variant text NOT NULL DEFAULT 'info',
  sticky boolean NOT NULL DEFAULT false,
  icon text,
  link text,
  link_text text,
  dialog_title text,
  dialog text,
  created_at timestamptz NOT NULL DEFAULT now()
);
