import type { ComponentChildren } from 'preact';

// Banners are written in Markdown. This renders the part of it a banner needs — paragraphs,
// lists, **strong**, *emphasis*, `code` and [links](…) — as elements, never as HTML, so a
// banner cannot put markup or scripts into the page.
const INLINE = /\*\*(.+?)\*\*|\*(.+?)\*|_(.+?)_|`(.+?)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Only links a person can follow safely: web addresses and paths of this site. */
export function safeHref(href: string): string | undefined {
  if (/^(https?:\/\/|\/(?!\/)|#)/i.test(href)) return href;
  return undefined;
}

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const [, strong, em, em2, code, linkText, href] = m;
    if (strong !== undefined) out.push(<strong>{inline(strong)}</strong>);
    else if (em !== undefined || em2 !== undefined) out.push(<em>{inline((em ?? em2)!)}</em>);
    else if (code !== undefined) out.push(<code>{code}</code>);
    else {
      const safe = safeHref(href!);
      out.push(safe ? <a href={safe}>{inline(linkText!)}</a> : linkText);
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function block(text: string, key: number) {
  const lines = text.split('\n');
  if (lines.every((line) => /^\s*[-*] /.test(line))) {
    return (
      <ul key={key}>
        {lines.map((line, i) => (
          <li key={i}>{inline(line.replace(/^\s*[-*] /, ''))}</li>
        ))}
      </ul>
    );
  }
  return <p key={key}>{inline(lines.join(' '))}</p>;
}

export function Markdown({ text, inlineOnly }: { text: string; inlineOnly?: boolean }) {
  if (inlineOnly) return <>{inline(text.replace(/\s*\n\s*/g, ' '))}</>;
  return <>{text.split(/\n\s*\n/).map((part, i) => block(part.trim(), i))}</>;
}
