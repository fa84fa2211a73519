import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm';
import { CheckboxField } from '../../components/fields';
import { Form } from '../../components/form';
import { Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { useForm } from '../../forms/use-form';
import { downloadJson, readJson } from './download';
import { JsonSource } from './json-source';

function StateImportForm() {
  const confirm = useConfirm();
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState(false);
  const form = useForm({ text: '', keep: true, drop: false });
  return (
    <Form
      label="Import a configuration"
      error={form.error}
      onSubmit={form.onSubmit(async ({ text, keep, drop }) => {
        setDone(false);
        const state = await readJson(file, text);
        if (drop) {
          const confirmed = await confirm({
            title: 'Replace the configuration?',
            body: <p>Every flag, strategy, segment and tag is deleted first, then the file is imported.</p>,
            confirmLabel: 'Delete and import',
            danger: true,
          });
          if (!confirmed) return;
        }
        await api.post(`/api/admin/state/import?keep=${keep}&drop=${drop}`, state);
        setDone(true);
      })}
    >
      <h3>Import</h3>
      <JsonSource text={form.values.text} onText={(v) => form.set('text', v)} onFile={setFile} />
      <CheckboxField
        label="Keep what exists"
        hint="Items already here stay as they are; otherwise the file's values win."
        {...form.checkbox('keep')}
      />
      <CheckboxField label="Delete the current configuration first" {...form.checkbox('drop')} />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          Import
        </Button>
        {done && <span role="status">Imported.</span>}
      </div>
    </Form>
  );
}

/** The whole configuration as one document: download it, or import one (all of it or nothing). */
export function StateTransfer() {
  const { run, busy, problem } = useAction();
  const download = () =>
    run(async () => downloadJson('flagpole-state.json', await api.get('/api/admin/state/export')));
  return (
    <section class="card stack" aria-labelledby="state-transfer">
      <h2 id="state-transfer">The whole configuration</h2>
      <p class="muted">
        Projects, environments, flags with their strategies and variants, segments and tags.
      </p>
      <Problem message={problem} />
      <Button onClick={download} busy={busy}>
        Download the configuration
      </Button>
      <StateImportForm />
    </section>
  );
}
