import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { FlagSearchAnswer } from '../api/flag-search';
import { useResource } from '../api/use-resource';
import { navigate } from '../router';
import { useSession } from '../session';
import { type CommandItem, FLAGS_SHOWN, flagItems, flagSearchPath, localItems } from './command-items';
import { adminNavigation, mainNavigation } from './navigation';

const EXTRA_SCREENS = [
  { href: '/create-project', label: 'New project' },
  { href: '/profile', label: 'Profile and personal tokens' },
];

/** Flags whose name, description or tags hold the words, read once typing pauses. */
function useFlags(words: string): CommandItem[] {
  const [flags, setFlags] = useState<CommandItem[]>([]);
  useEffect(() => {
    if (!words.trim()) {
      setFlags([]);
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const answer = await api.get<FlagSearchAnswer>(flagSearchPath(words));
        if (current) setFlags(flagItems(answer));
      } catch {
        // The screens and projects are still there to choose from.
      }
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [words]);
  return flags;
}

/** Ctrl+K's dialog: type, then go to a flag, a project or a screen with the arrows and Enter. */
export function CommandMenu({ onClose }: { onClose(): void }) {
  const session = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [words, setWords] = useState('');
  const [active, setActive] = useState(0);
  const projects = useResource<{ projects: { id: string; name: string }[] }>('/api/admin/projects');
  const flags = useFlags(words);
  const screens = useMemo(
    () => [
      ...mainNavigation,
      ...adminNavigation.filter((item) => !item.visible || item.visible(session)),
      ...EXTRA_SCREENS,
    ],
    [session],
  );
  const items = [...flags, ...localItems(words, screens, projects.data?.projects ?? [])];
  const at = Math.min(active, Math.max(0, items.length - 1));

  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const go = (item: CommandItem | undefined) => {
    if (!item) return;
    dialog.current?.close();
    navigate(item.href);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const move = { ArrowDown: 1, ArrowUp: -1 }[e.key];
    if (move !== undefined && items.length > 0) {
      e.preventDefault();
      setActive((at + move + items.length) % items.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      go(items[at]);
    }
  };
  const optionId = (i: number) => `${id}-option-${i}`;
  return (
    <dialog ref={dialog} class="dialog command-menu" aria-label="Go to" onClose={onClose}>
      <input
        type="text"
        role="combobox"
        aria-label="Go to a flag, project or screen"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={items.length > 0 ? optionId(at) : undefined}
        placeholder="Flag, project or screen…"
        value={words}
        onInput={(e) => {
          setWords(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        autoFocus
      />
      <div id={`${id}-list`} role="listbox" aria-label="Places" class="command-list">
        {items.map((item, i) => (
          <div
            key={`${item.kind}:${item.href}`}
            id={optionId(i)}
            role="option"
            tabIndex={-1}
            aria-selected={i === at}
            class="command-option"
            onMouseMove={() => setActive(i)}
            onClick={() => go(item)}
            onKeyDown={onKeyDown}
          >
            <span class="command-kind">{item.kind}</span> {item.label}
            {item.detail && <span class="muted"> in {item.detail}</span>}
          </div>
        ))}
      </div>
      <p class="muted command-hint" aria-live="polite">
        {items.length === 0
          ? 'Nothing here by that name.'
          : `${items.length} places${flags.length === FLAGS_SHOWN ? ` (the first ${FLAGS_SHOWN} flags)` : ''}. ↑ ↓ to choose, Enter to go, Esc to close.`}
      </p>
    </dialog>
  );
}
