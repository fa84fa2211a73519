import type { StrategyTab } from './strategy-draft';

interface Props {
  tabs: { id: StrategyTab; label: string; problems: number }[];
  current: StrategyTab;
  onTab(tab: StrategyTab): void;
}

/** The strategy editor's tabs: arrows move between them, as a tab list does; each says its problems. */
export function StrategyTabs({ tabs, current, onTab }: Props) {
  const onKeyDown = (event: KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const at = tabs.findIndex((t) => t.id === current);
    const next = tabs[(at + step + tabs.length) % tabs.length]!;
    onTab(next.id);
    document.getElementById(`strategy-${next.id}-tab`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Parts of the strategy" class="tabs" onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`strategy-${t.id}-tab`}
          aria-selected={t.id === current}
          aria-controls={`strategy-${t.id}`}
          tabIndex={t.id === current ? 0 : -1}
          onClick={() => onTab(t.id)}
        >
          {t.label}
          {t.problems > 0 && (
            <span class="badge badge-danger">
              {t.problems} {t.problems === 1 ? 'problem' : 'problems'}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}
