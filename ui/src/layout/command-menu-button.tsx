import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

type Menu = ComponentType<{ onClose(): void }>;
let loaded: Menu | undefined;

/**
 * The header's "Go to" button, and Ctrl+K (⌘K) anywhere: it opens the command menu, whose code is
 * fetched the first time it is asked for.
 */
export function CommandMenuButton() {
  const [open, setOpen] = useState(false);
  const [Menu, setMenu] = useState<Menu | undefined>(() => loaded);
  const show = async () => {
    if (!loaded) loaded = (await import('./command-menu')).CommandMenu;
    setMenu(() => loaded);
    setOpen(true);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button type="button" class="command-button" onClick={show} aria-keyshortcuts="Control+K Meta+K">
        Go to…<kbd>Ctrl K</kbd>
      </button>
      {open && Menu && <Menu onClose={() => setOpen(false)} />}
    </>
  );
}
