import { useEffect, useState } from 'preact/hooks';
import { Link } from '../router';

// The first admin's password is the same on every new install and printed in every guide. Who signs
// in with it is told, until they change it: the browser knows what was typed; nothing is sent.
const KNOWN_DEFAULT = 'unleash4all';
const KEY = 'flagpole:default-password';

/** After a password sign-in: remembers (for this tab) whether it was the well-known default. */
export function noteSignInPassword(password: string): void {
  if (password === KNOWN_DEFAULT) sessionStorage.setItem(KEY, '1');
  else sessionStorage.removeItem(KEY);
}

/** After the password was changed. */
export function forgetDefaultPassword(): void {
  sessionStorage.removeItem(KEY);
  window.dispatchEvent(new Event(KEY));
}

/** A warning under the header while the signed-in user's password is the well-known default. */
export function DefaultPasswordReminder() {
  const [shown, setShown] = useState(() => sessionStorage.getItem(KEY) === '1');
  // Told by the profile page when the password changed.
  useEffect(() => {
    const hide = () => setShown(false);
    window.addEventListener(KEY, hide);
    return () => window.removeEventListener(KEY, hide);
  }, []);
  if (!shown) return null;
  return (
    <div class="banner banner-error">
      <span class="banner-icon" aria-hidden="true">
        ⚠
      </span>
      <span class="banner-message">
        You signed in with the default password, which everyone knows: anyone can sign in as you.
      </span>
      <Link href="/profile" class="banner-link">
        Change your password
      </Link>
    </div>
  );
}
