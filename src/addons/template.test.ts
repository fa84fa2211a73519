import { describe, expect, it } from 'vitest';
import { SecretBox, SecretKeyError } from '../secrets.js';
import { renderTemplate } from './template.js';

describe('renderTemplate', () => {
  const context = {
    event: { type: 'feature-created', data: { name: 'a<b>', n: 3, list: [1, 2], nil: null } },
  };

  it('puts values in, HTML-escaped unless in triple braces or after &', () => {
    expect(
      renderTemplate(
        '{{event.type}}: {{ event.data.name }} {{{event.data.name}}} {{& event.data.name}}',
        context,
      ),
    ).toBe('feature-created: a&lt;b&gt; a<b> a<b>');
    expect(renderTemplate('{{{event.data.n}}} {{{event.data.list}}} {{{event}}}', context)).toBe(
      `3 [1,2] ${JSON.stringify(context.event)}`,
    );
  });

  it('renders missing values, prototypes, sections and comments empty, and runs nothing', () => {
    expect(
      renderTemplate(
        '[{{event.missing.deep}}][{{event.data.nil}}][{{event.constructor}}][{{__proto__}}][{{#event}}x{{/event}}][{{! note }}][{{> partial}}][{{event.type.length}}]',
        context,
      ),
    ).toBe('[][][][][x][][][]');
    expect(renderTemplate('no tags {single} }} {{', context)).toBe('no tags {single} }} {{');
  });
});

describe('SecretBox', () => {
  it('seals with AES-256-GCM and opens with the same key only', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    const sealed = box.seal('s3cret');
    expect(sealed).toMatch(/^aes256gcm:[0-9a-f]{8}:/);
    expect(sealed).not.toContain('s3cret');
    expect(box.seal('s3cret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('s3cret');
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow(/another FLAGPOLE_SECRET_KEY/);
    expect(() => new SecretBox(undefined).open(sealed)).toThrow(SecretKeyError);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(tampered)).toThrow(/damaged/);
  });

  it('stores as sent without a key, and still opens that once a key is set', () => {
    const plain = new SecretBox(undefined).seal('s3cret');
    expect(plain).toBe('plain:s3cret');
    expect(new SecretBox(Buffer.alloc(32, 1)).open(plain)).toBe('s3cret');
  });
});
