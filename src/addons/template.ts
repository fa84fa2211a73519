/**
 * A small Mustache-like renderer for webhook bodies: `{{path.to.value}}` is replaced by that value,
 * HTML-escaped as Mustache does, `{{{path}}}` and `{{& path}}` by the value as it is. Only own
 * properties of plain data are looked up, so nothing can reach a prototype or run code; a missing
 * value renders empty, objects as JSON. Sections, partials and comments render nothing.
 */

const TAG = /\{\{(\{?)\s*([&#^/>!]?)\s*([^{}]*?)\s*\}?\}\}/g;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '/': '&#x2F;',
  '`': '&#x60;',
  '=': '&#x3D;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=/]/g, (c) => ESCAPES[c]!);
}

function lookup(context: unknown, path: string): unknown {
  if (path === '.') return context;
  let value: unknown = context;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function renderTemplate(template: string, context: unknown): string {
  return template.replace(TAG, (_whole, triple: string, sigil: string, name: string) => {
    if (sigil !== '' && sigil !== '&') return '';
    const value = text(lookup(context, name));
    return triple === '{' || sigil === '&' ? value : escapeHtml(value);
  });
}
