import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** What the router gives every screen: the parameters of its path's pattern and the query. */
export interface RouteProps {
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Location {
  path: string;
  query: URLSearchParams;
}

function current(): Location {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/**
 * Goes to a path of the app without reloading the page. `replace` changes the address of the page
 * being read (a filter typed in), without a new history entry and where the page is scrolled to.
 */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else {
    window.history.pushState(null, '', to);
    window.scrollTo(0, 0);
  }
  for (const listener of listeners) listener();
}

/** The location, following every navigation. */
export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return location;
}

/** Turns a pattern such as `/projects/:projectId` into a matcher of paths, answering its parameters. */
export function compilePattern(pattern: string): (path: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  const regex = new RegExp(`^${source}/?$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return null;
    try {
      return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    } catch {
      return null; // A segment that does not decode names nothing of ours.
    }
  };
}

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
  'aria-label'?: string;
  onClick?(event: MouseEvent): void;
}

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

type LeaveCheck = () => Promise<boolean>;
const leaveChecks = new Set<LeaveCheck>();

/**
 * Asks, before a link of the app leaves the page, whether to leave (a form with unsaved edits);
 * answers the function that stops asking.
 */
export function guardLeaving(check: LeaveCheck): () => void {
  leaveChecks.add(check);
  return () => leaveChecks.delete(check);
}

async function mayLeave(): Promise<boolean> {
  for (const check of [...leaveChecks]) if (!(await check())) return false;
  return true;
}

/** A link inside the app: a real `<a>` (opens in a new tab, copies), followed without a reload. */
export function Link({ href, onClick, ...props }: LinkProps) {
  return (
    <a
      href={href}
      onClick={async (event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainClick(event)) return;
        event.preventDefault();
        if (await mayLeave()) navigate(href);
      }}
      {...props}
    />
  );
}
