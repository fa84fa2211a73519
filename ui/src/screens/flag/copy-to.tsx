import type { FeatureEnvironment } from '../../api/types';
import { useConfirm } from '../../components/confirm';
import { Disclosure } from '../../layout/disclosure';

interface Props {
  /** What is copied, as the confirmation says it ("the strategy “Beta”", "the variants"). */
  what: string;
  from: string;
  environments: FeatureEnvironment[];
  onCopy(to: string): Promise<unknown>;
}

/** A menu of the flag's other environments to copy something to; into production it asks first. */
export function CopyTo({ what, from, environments, onCopy }: Props) {
  const confirm = useConfirm();
  const targets = environments.filter((e) => e.name !== from);
  if (targets.length === 0) return null;
  const copy = async (to: FeatureEnvironment) => {
    if (to.type === 'production') {
      const yes = await confirm({
        title: `Copy ${what} to ${to.name}?`,
        body: (
          <p>
            {to.enabled
              ? `The flag is on in ${to.name}: applications there follow the copy at once.`
              : `The flag is off in ${to.name}: the copy takes effect when it is turned on.`}
          </p>
        ),
        confirmLabel: `Copy to ${to.name}`,
        danger: true,
      });
      if (!yes) return;
    }
    await onCopy(to.name);
  };
  return (
    <Disclosure label="Copy to" ariaLabel={`Copy to another environment: ${what} of ${from}`} align="right">
      <ul class="menu-list">
        {targets.map((e) => (
          <li key={e.name}>
            <button type="button" class="nav-link" onClick={() => copy(e)}>
              {e.name}
            </button>
          </li>
        ))}
      </ul>
    </Disclosure>
  );
}
