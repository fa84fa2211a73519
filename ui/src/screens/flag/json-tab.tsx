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
      <pre class="json">{json}</pre>
    </>
  );
}
