import { useEffect, useRef, useState } from 'preact/hooks';
import { TextField } from './fields';

/** How long typing may pause before a list follows: one search per word, not per key. */
const TYPING_PAUSE_MS = 250;

interface Props {
  label: string;
  placeholder?: string;
  hint?: string;
  value: string;
  onSearch(text: string): void;
}

/** A search field: it keeps what is typed to itself and hands it on when typing pauses (or on Enter). */
export function SearchBox({ label, placeholder, hint, value, onSearch }: Props) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The URL changed under it (Back, a link): show that search.
  useEffect(() => setText(value), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const hand = (next: string) => {
    clearTimeout(timer.current);
    if (next !== value) onSearch(next);
  };
  return (
    <TextField
      label={label}
      type="search"
      placeholder={placeholder}
      hint={hint}
      value={text}
      onValue={(next) => {
        setText(next);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => hand(next), TYPING_PAUSE_MS);
      }}
      onKeyDown={(e: KeyboardEvent) => e.key === 'Enter' && hand(text)}
    />
  );
}
