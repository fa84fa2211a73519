import { useId } from 'preact/hooks';
import { TextAreaField } from '../../components/fields';

interface Props {
  text: string;
  onText(text: string): void;
  onFile(file: File | null): void;
  error?: string;
}

/** Where an import comes from: a file, or JSON pasted in. */
export function JsonSource({ text, onText, onFile, error }: Props) {
  const id = useId();
  return (
    <>
      <div class="field">
        <label for={id}>Export file</label>
        <input
          id={id}
          type="file"
          accept="application/json,.json"
          onChange={(e) => onFile(e.currentTarget.files?.[0] ?? null)}
        />
      </div>
      <TextAreaField label="Or paste its JSON" rows={5} value={text} onValue={onText} error={error} />
    </>
  );
}
