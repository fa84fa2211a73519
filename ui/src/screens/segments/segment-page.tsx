import { api } from '../../api/client';
import type { ContextField, Project, Segment } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { SelectField, TextAreaField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Empty, Loaded } from '../../components/status';
import {
  type ConstraintDraft,
  ConstraintsEditor,
  cleanConstraints,
} from '../../constraints/constraints-editor';
import { describeConstraint } from '../../constraints/operators';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { useCan } from '../../session';
import { flagHref } from '../../shared/links';

interface SegmentUse {
  id: string;
  featureName: string;
  projectId: string;
  environment: string;
}

interface Draft {
  name: string;
  description: string;
  project: string;
  constraints: ConstraintDraft[];
}

const TRAIL = [{ href: '/segments', label: 'Segments' }];

function SegmentForm({
  segment,
  projects,
  contextFields,
}: {
  segment: Segment | null;
  projects: Project[];
  contextFields: ContextField[];
}) {
  const form = useForm<Draft>(
    {
      name: segment?.name ?? '',
      description: segment?.description ?? '',
      project: segment?.project ?? '',
      constraints: segment?.constraints ?? [],
    },
    { conflictField: 'name' },
  );
  const save = async ({ name, description, project, constraints }: Draft) => {
    const body = {
      name,
      description: description || null,
      project: project || null,
      constraints: cleanConstraints(constraints),
    };
    // A PUT replaces the whole segment: a field this form does not show goes back as it came.
    if (segment) await api.put(`/api/admin/segments/${segment.id}`, { ...segment, ...body });
    else await api.post('/api/admin/segments', body);
    navigate('/segments');
  };
  return (
    <Form label="Segment" error={form.error} onSubmit={form.onSubmit(save)}>
      <TextField label="Name" required {...form.field('name')} />
      <TextAreaField label="Description" {...form.field('description')} />
      <SelectField
        label="Project"
        hint="A segment of one project can only be used by that project's flags."
        {...form.field('project')}
        choices={[
          { value: '', label: 'Any project' },
          ...projects.map((p) => ({ value: p.id, label: p.name })),
        ]}
      />
      <fieldset>
        <legend>Constraints</legend>
        <ConstraintsEditor
          constraints={form.values.constraints}
          onChange={(constraints) => form.set('constraints', constraints)}
          contextFields={contextFields}
          errorAt={form.errorAt}
        />
      </fieldset>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {segment ? 'Save segment' : 'Create segment'}
        </Button>
        <Link href="/segments" class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

function SegmentSummary({ segment }: { segment: Segment }) {
  return (
    <div class="card">
      {segment.description && <p>{segment.description}</p>}
      <p>
        <span class="label">Project:</span> {segment.project ?? 'Any project'}
      </p>
      <ul class="constraint-list">
        {segment.constraints.map((c, i) => (
          <li key={i}>
            <code>{describeConstraint(c)}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SegmentUses({ segment }: { segment: Segment }) {
  const uses = useResource<{ strategies: SegmentUse[] }>(`/api/admin/segments/${segment.id}/strategies`);
  const list = uses.data?.strategies ?? [];
  return (
    <section aria-labelledby="segment-uses">
      <h2 id="segment-uses">Used by</h2>
      {list.length === 0 ? (
        <Empty>No strategy uses this segment.</Empty>
      ) : (
        <ul>
          {list.map((u) => (
            <li key={u.id}>
              <Link href={flagHref(u.projectId, u.featureName)}>{u.featureName}</Link> in {u.environment}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function DeleteSegment({ segment }: { segment: Segment }) {
  return (
    <DeleteButton
      confirm={{
        title: `Delete the segment “${segment.name}”?`,
        body: <p>It is gone for good. A segment still used by a strategy cannot be deleted.</p>,
        confirmLabel: 'Delete segment',
      }}
      onDelete={async () => {
        await api.del(`/api/admin/segments/${segment.id}`);
        navigate('/segments');
      }}
    />
  );
}

/** One segment (or a new one): edit its constraints (or read them), see which flags use it, delete it. */
export function SegmentPage({ params }: RouteProps) {
  const id = params.segmentId ?? '';
  const isNew = params.segmentId === undefined;
  const segment = useResource<Segment>(isNew ? null : `/api/admin/segments/${encodeURIComponent(id)}`);
  const projects = useResource<{ projects: Project[] }>('/api/admin/projects');
  const contextFields = useResource<ContextField[]>('/api/admin/context');
  const canEdit = useCan(isNew ? 'CREATE_SEGMENT' : 'UPDATE_SEGMENT');
  const canDelete = useCan('DELETE_SEGMENT');
  const title = isNew ? 'New segment' : (segment.data?.name ?? 'Segment');
  return (
    <Loaded
      resources={[isNew ? null : segment, projects, contextFields]}
      header={<PageHeader title={title} trail={TRAIL} />}
    >
      {(read, { projects }, contextFields) => {
        const current = read ?? null;
        return (
          <>
            <PageHeader
              title={title}
              trail={TRAIL}
              actions={current && canDelete && <DeleteSegment segment={current} />}
            />
            {canEdit ? (
              <SegmentForm segment={current} projects={projects} contextFields={contextFields} />
            ) : (
              current && <SegmentSummary segment={current} />
            )}
            {current && <SegmentUses segment={current} />}
          </>
        );
      }}
    </Loaded>
  );
}
