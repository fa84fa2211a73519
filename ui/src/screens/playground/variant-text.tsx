import type { ResultVariant } from './answers';

/** The variant a result gives SDKs: its name and payload, or that none applies. */
export function VariantText({ variant }: { variant: ResultVariant }) {
  // SDKs get a variant named "disabled" when none applies: shown beside "On" it read as the flag's state.
  if (!variant.enabled) {
    return (
      <span class="muted" title={`SDKs get the variant “${variant.name}”: no variant applies.`}>
        No variant
      </span>
    );
  }
  return (
    <>
      <strong>{variant.name}</strong>
      {variant.payload && (
        <>
          {' '}
          <code>{`${variant.payload.type}: ${variant.payload.value}`}</code>
        </>
      )}
    </>
  );
}
