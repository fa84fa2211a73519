import { CopyButton } from '../../components/copy-button';
import type { FlagTabProps } from './flag-tab';

/** The flag as the admin API answers it. */
export function JsonTab({ feature }: FlagTabProps) {
  const json = JSON.stringify(feature, null, 2);
  return (
    <>
      <div class="actions">
        <CopyButton text={json} label="Copy JSON" />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard must reach it to scroll it (WCAG 2.1.1) */}
      <pre class="json" tabIndex={0}>
        {json}
      </pre>
    </>
  );
}
