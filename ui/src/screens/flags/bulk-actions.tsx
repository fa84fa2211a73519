import { useState } from 'preact/hooks';
import { api, seg } from '../../api/client';
import type { FoundFlag } from '../../api/flag-search';
import type { Environment } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { addToDraft, draftEnvironments } from '../../change-requests/drafts';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm';
import { SelectField, TextField } from '../../components/fields';

interface Props {
  selected: FoundFlag[];
  environments: Environment[];
  /** After a change: the list is read again and the selection cleared. */
  onDone(message: string): void;
  onError(message: string): void;
  onClear(): void;
}

/** The selected flags by project: each bulk call of the API is about one project's flags. */
function byProject(flags: FoundFlag[]): Map<string, string[]> {
  const projects = new Map<string, string[]>();
  for (const f of flags) projects.set(f.project, [...(projects.get(f.project) ?? []), f.name]);
  return projects;
}

const plural = (n: number) => `${n} flag${n === 1 ? '' : 's'}`;

/** What can be done to every selected flag at once: switch in an environment, tag, archive. */
export function BulkActions({ selected, environments, onDone, onError, onClear }: Props) {
  const confirm = useConfirm();
  const [environment, setEnvironment] = useState(environments[0]?.name ?? '');
  const tagTypes = useResource<{ tagTypes: { name: string }[] }>('/api/admin/tag-types');
  const [tagType, setTagType] = useState('simple');
  const [tagValue, setTagValue] = useState('');
  const [busy, setBusy] = useState(false);
  const count = plural(selected.length);
  const run = async (
    each: (project: string, names: string[]) => Promise<unknown>,
    message: string | (() => string),
  ) => {
    setBusy(true);
    try {
      for (const [project, names] of byProject(selected)) await each(project, names);
      onDone(typeof message === 'string' ? message : message());
    } catch (error) {
      onError((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const switchAll = async (on: boolean) => {
    const env = environments.find((e) => e.name === environment);
    if (env?.type === 'production') {
      const yes = await confirm({
        title: `Turn ${on ? 'on' : 'off'} ${count} in ${environment}?`,
        body: (
          <p>
            Applications using “{environment}” get {on ? 'them as their strategies say' : 'false for them'}.
          </p>
        ),
        confirmLabel: `Turn ${on ? 'on' : 'off'} in ${environment}`,
        danger: true,
      });
      if (!yes) return;
    }
    // Projects where the environment takes change requests get the switches in the user's draft.
    let drafted = false;
    await run(
      async (project, features) => {
        if ((await draftEnvironments(project)).has(environment)) {
          drafted = true;
          const enabled = on;
          return addToDraft(
            project,
            environment,
            features.map((feature) => ({ feature, action: 'updateEnabled' as const, payload: { enabled } })),
          );
        }
        return api.post(
          `/api/admin/projects/${seg(project)}/bulk_features/environments/${seg(environment)}/${on ? 'on' : 'off'}`,
          { features },
        );
      },
      () =>
        drafted
          ? `Turning ${on ? 'on' : 'off'} ${count} in ${environment} went to your draft change request.`
          : `Turned ${on ? 'on' : 'off'} ${count} in ${environment}.`,
    );
  };
  const addTag = async () => {
    const value = tagValue.trim();
    if (!value) return onError('Type the value of the tag to add.');
    const parsed = { type: tagType, value };
    await run(
      (project, features) =>
        api.put(`/api/admin/projects/${seg(project)}/tags`, {
          features,
          tags: { addedTags: [parsed], removedTags: [] },
        }),
      `Tagged ${count} with ${parsed.type}:${parsed.value}.`,
    );
    setTagValue('');
  };
  const archive = async () => {
    const yes = await confirm({
      title: `Archive ${count}?`,
      body: (
        <p>
          SDKs stop receiving them: applications get false for them. They can be revived from the archive.
        </p>
      ),
      confirmLabel: `Archive ${count}`,
      danger: true,
    });
    if (!yes) return;
    await run(
      (project, features) => api.post(`/api/admin/projects/${seg(project)}/archive`, { features }),
      `Archived ${count}.`,
    );
  };
  return (
    <section class="bulk-actions" aria-label="Selected flags">
      <p role="status">{count} selected</p>
      <div class="inline-form">
        <SelectField
          label="Environment"
          value={environment}
          choices={environments.map((e) => ({ value: e.name, label: e.name }))}
          onValue={setEnvironment}
        />
        <Button onClick={() => switchAll(true)} busy={busy}>
          Turn on
        </Button>
        <Button onClick={() => switchAll(false)} busy={busy}>
          Turn off
        </Button>
      </div>
      <div class="inline-form">
        <SelectField
          label="Tag type"
          value={tagType}
          choices={(tagTypes.data?.tagTypes ?? [{ name: 'simple' }]).map((t) => ({
            value: t.name,
            label: t.name,
          }))}
          onValue={setTagType}
        />
        <TextField label="Tag value" value={tagValue} onValue={setTagValue} />
        <Button onClick={addTag} busy={busy}>
          Add tag
        </Button>
      </div>
      <div class="actions">
        <Button variant="danger" onClick={archive} busy={busy}>
          Archive
        </Button>
        <Button variant="quiet" onClick={onClear}>
          Clear selection
        </Button>
      </div>
    </section>
  );
}
