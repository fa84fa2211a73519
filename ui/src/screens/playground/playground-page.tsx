import { useState } from 'preact/hooks';
import type { ContextField, Environment, Project } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import type { Results } from './answers';
import { PlaygroundForm } from './playground-form';
import { PlaygroundResults } from './results';

/** Tries a context out: every flag of the chosen projects and environments, on or off, and why. */
export function PlaygroundPage() {
  const environments = useResource<{ environments: Environment[] }>('/api/admin/environments');
  const projects = useResource<{ projects: Project[] }>('/api/admin/projects');
  const contextFields = useResource<ContextField[]>('/api/admin/context');
  const [results, setResults] = useState<Results | null>(null);
  const header = (
    <PageHeader title="Playground">
      <p class="muted">
        Try a context out: each flag evaluated as an SDK would, with the reason — every strategy, constraint
        and segment.
      </p>
    </PageHeader>
  );
  return (
    <Loaded resources={[environments, projects, contextFields]} header={header}>
      {({ environments }, { projects }, contextFields) => (
        <>
          {header}
          <PlaygroundForm
            environments={[...environments].sort((a, b) => a.sortOrder - b.sortOrder)}
            projects={projects}
            contextFields={contextFields}
            onResults={setResults}
          />
          {results && <PlaygroundResults results={results} />}
        </>
      )}
    </Loaded>
  );
}
