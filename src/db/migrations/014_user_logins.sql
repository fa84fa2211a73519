-- What people sign in with: a user's username and e-mail address, in lower case. Sign-in matches
-- what is typed against both columns, whatever its case, so a login must name one user: no
-- username may be another user's e-mail (or the other way round), which the unique indexes on
-- each column alone cannot say. One row per login, its key the login, so the database refuses a
-- second owner however many requests race for it. A user whose username and e-mail are the same
-- holds that login once.
CREATE TABLE user_logins (
  login text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX user_logins_user ON user_logins (user_id);

-- Kept by the database itself, so that no way of writing a user can forget it.
CREATE FUNCTION user_logins_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_logins WHERE user_id = NEW.id;
  INSERT INTO user_logins (login, user_id)
    SELECT DISTINCT l, NEW.id FROM unnest(ARRAY[lower(NEW.username), lower(NEW.email)]) AS l
     WHERE l IS NOT NULL;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_logins_inserted AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION user_logins_follow();
-- Only when a login really changes: writing a user's row with the same username and e-mail (any
-- other change) leaves its logins alone.
CREATE TRIGGER users_logins_updated AFTER UPDATE OF username, email ON users
  FOR EACH ROW
  WHEN (lower(OLD.username) IS DISTINCT FROM lower(NEW.username)
        OR lower(OLD.email) IS DISTINCT FROM lower(NEW.email))
  EXECUTE FUNCTION user_logins_follow();

-- The users there are. Where two already share a login (made before this rule), the older user
-- keeps it; the newer one can still be changed in every other way, and is refused only a change
-- of its own logins that keeps the shared one, until it gives that one up.
INSERT INTO user_logins (login, user_id)
SELECT s.login, s.id
  FROM (SELECT u.id, l AS login
          FROM users u, unnest(ARRAY[lower(u.username), lower(u.email)]) AS l
         WHERE l IS NOT NULL) s
 ORDER BY s.id
ON CONFLICT (login) DO NOTHING;
