import { api, featurePath, seg } from '../../api/client';
import type { ContextField, Segment, Strategy, StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { CheckboxField, SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { Loaded } from '../../components/status';
import {
  type ConstraintDraft,
  ConstraintsEditor,
  cleanConstraints,
} from '../../constraints/constraints-editor';
import { useForm } from '../../forms/use-form';
import { PageHeader } from '../../layout/page-header';
import { Link, navigate, type RouteProps } from '../../router';
import { flagHref } from '../../shared/links';
import { useProjectTrail } from '../projects/project-trail';
import { SegmentPicker } from './segment-picker';
import { defaultParameters, StrategyParameters } from './strategy-parameters';

interface Draft {
  name: string;
  title: string;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: ConstraintDraft[];
  segments: number[];
}

interface FormProps {
  project: string;
  feature: string;
  environment: string;
  strategy: Strategy | null;
  types: StrategyType[];
  contextFields: ContextField[];
  segments: Segment[];
}

function draftOf(strategy: Strategy | null, feature: string): Draft {
  if (!strategy) {
    return {
      name: 'flexibleRollout',
      title: '',
      disabled: false,
      parameters: defaultParameters('flexibleRollout', feature),
      constraints: [],
      segments: [],
    };
  }
  return {
    name: strategy.name,
    title: strategy.title ?? '',
    disabled: strategy.disabled ?? false,
    parameters: strategy.parameters,
    constraints: strategy.constraints,
    segments: strategy.segments,
  };
}

/**
 * The title as typed; an untouched empty one goes back as it came (none). The server keeps the
 * title it has when sent none, so an emptied one is sent empty.
 */
function titleToSend(typed: string, strategy: Strategy | null): string | null {
  if (typed) return typed;
  return strategy?.title ? '' : null;
}

function StrategyForm({
  project,
  feature,
  environment,
  strategy,
  types,
  contextFields,
  segments,
}: FormProps) {
  const form = useForm<Draft>(draftOf(strategy, feature));
  const { values } = form;
  const type = types.find((t) => t.name === values.name);
  const back = flagHref(project, feature);
  const base = `${featurePath(project, feature)}/environments/${seg(environment)}/strategies`;
  const save = async (draft: Draft) => {
    const edited = {
      name: draft.name,
      title: titleToSend(draft.title, strategy),
      disabled: draft.disabled,
      parameters: draft.parameters,
      constraints: cleanConstraints(draft.constraints),
      segments: draft.segments,
    };
    // A PUT replaces the whole strategy: what this form does not show (its variants, its position, a
    // field a newer server adds) goes back as it came.
    if (strategy) await api.put(`${base}/${seg(strategy.id)}`, { ...strategy, ...edited });
    else await api.post(base, edited);
    navigate(back);
  };
  return (
    <Form label={`Strategy in ${environment}`} error={form.error} onSubmit={form.onSubmit(save)}>
      <SelectField
        label="Strategy type"
        value={values.name}
        choices={types
          .filter((t) => !t.deprecated || t.name === values.name)
          .map((t) => ({
            value: t.name,
            label: t.displayName || t.name,
          }))}
        hint={type?.description ?? undefined}
        onValue={(name) =>
          form.update((v) => ({
            ...v,
            name,
            parameters: defaultParameters(
              name,
              feature,
              types.find((t) => t.name === name),
            ),
          }))
        }
        error={form.errorAt('name')}
      />
      <TextField
        label="Title (optional)"
        hint="A name for this strategy, shown in lists."
        {...form.field('title')}
      />
      <StrategyParameters
        type={type}
        parameters={values.parameters}
        onChange={(parameters) => form.set('parameters', parameters)}
        contextFields={contextFields}
        errorAt={form.errorAt}
      />
      <fieldset>
        <legend>Constraints</legend>
        <p class="muted">The strategy applies only where every constraint holds.</p>
        <ConstraintsEditor
          constraints={values.constraints}
          onChange={(constraints) => form.set('constraints', constraints)}
          contextFields={contextFields}
          errorAt={form.errorAt}
        />
      </fieldset>
      <SegmentPicker
        segments={segments}
        chosen={values.segments}
        onChange={(ids) => form.set('segments', ids)}
        error={form.errorAt('segments')}
      />
      <CheckboxField
        label="Disabled"
        hint="A disabled strategy is kept but not evaluated."
        {...form.checkbox('disabled')}
      />
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {strategy ? 'Save strategy' : 'Add strategy'}
        </Button>
        <Link href={back} class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}

/** Add a strategy to a flag in an environment, or edit one: its parameters, constraints and segments. */
export function StrategyPage({ params, query }: RouteProps) {
  const project = params.projectId!;
  const projectTrail = useProjectTrail(project);
  const feature = params.featureName!;
  const strategyId = params.strategyId;
  const environment = query.get('environment') ?? '';
  const types = useResource<{ strategies: StrategyType[] }>('/api/admin/strategies');
  const contextFields = useResource<ContextField[]>('/api/admin/context');
  const segments = useResource<{ segments: Segment[] }>('/api/admin/segments');
  const strategy = useResource<Strategy>(
    strategyId
      ? `${featurePath(project, feature)}/environments/${seg(environment)}/strategies/${seg(strategyId)}`
      : null,
  );
  const title = `${strategyId ? 'Edit strategy' : 'Add strategy'} in ${environment}`;
  const header = (
    <PageHeader
      title={title}
      trail={[...projectTrail, { href: flagHref(project, feature), label: feature }]}
    />
  );
  return (
    <Loaded resources={[types, contextFields, segments, strategyId ? strategy : null]} header={header}>
      {({ strategies }, contextFields, { segments }, current) => (
        <>
          {header}
          <StrategyForm
            project={project}
            feature={feature}
            environment={environment}
            strategy={current ?? null}
            types={strategies}
            contextFields={contextFields}
            segments={segments}
          />
        </>
      )}
    </Loaded>
  );
}
