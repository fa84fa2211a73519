import { Link } from '../router';
import { useSession } from '../session';
import { CommandMenuButton } from './command-menu-button';
import { Disclosure } from './disclosure';
import { adminNavigation, mainNavigation, type NavItem } from './navigation';

interface Props {
  path: string;
  menuOpen: boolean;
  onMenu(open: boolean): void;
}

function isCurrent(path: string, href: string): boolean {
  return path === href || path.startsWith(`${href}/`);
}

function NavLink({ item, path }: { item: NavItem; path: string }) {
  return (
    <Link href={item.href} class="nav-link" aria-current={isCurrent(path, item.href) ? 'page' : undefined}>
      {item.label}
    </Link>
  );
}

/** The app's header: the main navigation, the administration pages one may use, and the user's menu. */
export function Header({ path, menuOpen, onMenu }: Props) {
  const session = useSession();
  const adminItems = adminNavigation.filter((item) => !item.visible || item.visible(session));
  const { user } = session.me;
  const who = user.name || user.username || user.email || `user ${user.id}`;
  return (
    <header class="app-header">
      <Link href="/projects" class="brand">
        <img src="/favicon.svg" alt="" width={22} height={22} />
        Flagpole
      </Link>
      <button
        type="button"
        class="menu-button"
        aria-expanded={menuOpen}
        aria-controls="main-nav"
        onClick={() => onMenu(!menuOpen)}
      >
        Menu
      </button>
      <nav id="main-nav" class={`main-nav${menuOpen ? ' open' : ''}`} aria-label="Main">
        {mainNavigation.map((item) => (
          <NavLink key={item.href} item={item} path={path} />
        ))}
        <Disclosure label="Admin">
          <ul class="menu-list">
            {adminItems.map((item) => (
              <li key={item.href}>
                <NavLink item={item} path={path} />
              </li>
            ))}
          </ul>
        </Disclosure>
        <CommandMenuButton />
        <Disclosure label={who} ariaLabel={`Account of ${who}`} align="right">
          <ul class="menu-list">
            <li>
              <Link href="/profile" class="nav-link">
                Profile and personal tokens
              </Link>
            </li>
            <li>
              <a href="/docs" class="nav-link">
                API reference
              </a>
            </li>
            <li>
              <button type="button" class="nav-link" onClick={() => session.signOut()}>
                Sign out
              </button>
            </li>
          </ul>
        </Disclosure>
      </nav>
    </header>
  );
}
