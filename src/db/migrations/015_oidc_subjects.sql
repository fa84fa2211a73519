-- Which person of an OpenID provider each user is: the provider's issuer and its subject (`sub`,
-- the one claim a provider promises never to reuse or change for a person), bound on the first
-- sign-in that links the two. Later sign-ins find the user by it, not by e-mail, so an address
-- that moves to another person at the provider (or is claimed by another account) cannot lead
-- into the user. A user is one person per provider; deleting the user frees the subject.
CREATE TABLE oidc_subjects (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject),
  UNIQUE (user_id, issuer)
);
