import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { Link } from '../router';

export interface Crumb {
  href: string;
  label: string;
}

interface Props {
  title: string;
  /** Where the page sits: the pages above it, outermost first. */
  trail?: Crumb[];
  /** The page's main actions, beside the title. */
  actions?: ComponentChildren;
  children?: ComponentChildren;
}

/** The page's title (also the document's), the path to it and its main actions. */
export function PageHeader({ title, trail, actions, children }: Props) {
  useEffect(() => {
    document.title = `${title} · Flagpole`;
  }, [title]);
  return (
    <div class="page-header">
      {trail && (
        <nav class="trail" aria-label="Breadcrumb">
          <ol>
            {trail.map((crumb) => (
              <li key={crumb.href}>
                <Link href={crumb.href}>{crumb.label}</Link>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div class="page-title">
        <h1>{title}</h1>
        {actions && <div class="actions">{actions}</div>}
      </div>
      {children}
    </div>
  );
}
