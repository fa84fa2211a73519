import { useState } from 'preact/hooks';
import { api, featurePath, seg } from '../../api/client';
import type { FeatureEnvironment } from '../../api/types';
import { changeOrDraft } from '../../change-requests/drafts';
import { Button } from '../../components/button';
import { Empty, Problem } from '../../components/status';
import { useAction } from '../../forms/use-action';
import { useCan } from '../../session';
import { CopyTo } from './copy-to';
import type { FlagTabProps } from './flag-tab';
import { VariantsEditor } from './variants-editor';

function VariantTable({ environment }: { environment: FeatureEnvironment }) {
  return (
    <table class="table">
      <caption class="visually-hidden">Variants in {environment.name}</caption>
      <thead>
        <tr>
          <th scope="col">Variant</th>
          <th scope="col">Weight</th>
          <th scope="col">Stickiness</th>
          <th scope="col">Payload</th>
        </tr>
      </thead>
      <tbody>
        {environment.variants.map((v) => (
          <tr key={v.name}>
            <th scope="row" data-label="Variant">
              {v.name}
            </th>
            <td data-label="Weight">
              {v.weight / 10}% {v.weightType === 'fix' && <span class="muted">(fixed)</span>}
            </td>
            <td data-label="Stickiness">{v.stickiness}</td>
            <td data-label="Payload">
              {v.payload ? <code>{`${v.payload.type}: ${v.payload.value}`}</code> : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EnvironmentVariants({
  project,
  feature,
  environment,
  reload,
}: FlagTabProps & { environment: FeatureEnvironment }) {
  const canEdit = useCan('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { project, environment: environment.name });
  const [editing, setEditing] = useState(false);
  const action = useAction();
  const copy = (to: string) =>
    action.run(async () => {
      await changeOrDraft(
        project,
        to,
        { feature: feature.name, action: 'patchVariant', payload: { variants: environment.variants } },
        () =>
          api.put(
            `${featurePath(project, feature.name)}/environments/${seg(to)}/variants`,
            environment.variants,
          ),
      );
      await reload();
    });
  return (
    <section class="card" aria-labelledby={`variants-${environment.name}`}>
      <header class="environment-head">
        <h3 id={`variants-${environment.name}`}>{environment.name}</h3>
        {canEdit && !editing && (
          <div class="actions">
            <Button onClick={() => setEditing(true)}>Edit variants in {environment.name}</Button>
            {environment.variants.length > 0 && (
              <CopyTo
                what="the variants"
                from={environment.name}
                environments={feature.environments}
                onCopy={copy}
              />
            )}
          </div>
        )}
      </header>
      <Problem message={action.problem} />
      {editing ? (
        <VariantsEditor
          project={project}
          feature={feature.name}
          environment={environment.name}
          variants={environment.variants}
          onSaved={async () => {
            await reload();
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : environment.variants.length === 0 ? (
        <Empty>No variants: SDKs answer the “disabled” variant here.</Empty>
      ) : (
        <VariantTable environment={environment} />
      )}
    </section>
  );
}

/** The variants of each environment, with their weights. */
export function VariantsTab(props: FlagTabProps) {
  return (
    <div class="environment-panels">
      {props.feature.environments.map((environment) => (
        <EnvironmentVariants key={environment.name} {...props} environment={environment} />
      ))}
    </div>
  );
}
