import { CopyButton } from './copy-button';

/** A secret the server shows only once: in full, with a copy button and a warning. */
export function SecretReveal({ label, secret }: { label: string; secret: string }) {
  return (
    <div class="secret" role="status">
      <p>
        <strong>{label}</strong> Copy it now: it will not be shown again.
      </p>
      <div class="secret-value">
        <code>{secret}</code>
        <CopyButton text={secret} />
      </div>
    </div>
  );
}
