import { useState } from 'preact/hooks';
import { Button } from './button';

/** Copies a text to the clipboard and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <>
      <Button onClick={copy}>{label}</Button>
      <span role="status" class="muted">
        {copied === true
          ? 'Copied.'
          : copied === false
            ? 'The browser did not allow copying: select the text.'
            : ''}
      </span>
    </>
  );
}
