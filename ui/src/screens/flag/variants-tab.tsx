import { useState } from 'preact/hooks';
import type { FeatureEnvironment } from '../../api/types';
import { Button } from '../../components/button';
import { Empty } from '../../components/status';
import { useCan } from '../../session';
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
  return (
    <section class="card" aria-labelledby={`variants-${environment.name}`}>
      <header class="environment-head">
        <h3 id={`variants-${environment.name}`}>{environment.name}</h3>
        {canEdit && !editing && (
          <Button onClick={() => setEditing(true)}>Edit variants in {environment.name}</Button>
        )}
      </header>
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
