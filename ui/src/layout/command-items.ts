import type { FlagSearchAnswer } from '../api/flag-search';
import { flagHref } from '../shared/links';

/** One place the command menu can go to. */
export interface CommandItem {
  kind: 'Screen' | 'Project' | 'Flag';
  label: string;
  /** Said after the label: a flag's project. */
  detail?: string;
  href: string;
}

const matches = (words: string, ...texts: string[]) => texts.some((t) => t.toLowerCase().includes(words));

/** The screens and projects whose names hold the words (all of them when nothing is typed). */
export function localItems(
  words: string,
  screens: { href: string; label: string }[],
  projects: { id: string; name: string }[],
): CommandItem[] {
  const w = words.trim().toLowerCase();
  return [
    ...screens
      .filter((s) => matches(w, s.label))
      .map((s) => ({ kind: 'Screen' as const, label: s.label, href: s.href })),
    ...projects
      .filter((p) => matches(w, p.name, p.id))
      .map((p) => ({
        kind: 'Project' as const,
        label: p.name,
        href: `/projects/${encodeURIComponent(p.id)}`,
      })),
  ];
}

export const FLAGS_SHOWN = 8;

/** The search API's request for the flags a command menu offers. */
export const flagSearchPath = (words: string) =>
  `/api/admin/search/features?${new URLSearchParams({ query: words.trim(), limit: String(FLAGS_SHOWN), sortBy: 'name' })}`;

export function flagItems(answer: FlagSearchAnswer): CommandItem[] {
  return answer.features.map((f) => ({
    kind: 'Flag',
    label: f.name,
    detail: f.project,
    href: flagHref(f.project, f.name),
  }));
}
