import { useEffect, useState } from 'preact/hooks';
import { api, featurePath, seg } from '../../api/client';
import type { ContextField, Segment, Strategy, StrategyType } from '../../api/types';
import { changeOrDraft, useDraftEnvironments } from '../../change-requests/drafts';
import { Button } from '../../components/button';
import { CheckboxField, SelectField, TextField } from '../../components/fields';
import { Form } from '../../components/form';
import { ConstraintsEditor } from '../../constraints/constraints-editor';
import { useForm } from '../../forms/use-form';
import { useLeaveGuard } from '../../forms/use-leave-guard';
import { Link, navigate } from '../../router';
import { flagHref } from '../../shared/links';
import { SegmentPicker } from './segment-picker';
import {
  type Draft,
  draftOf,
  STRATEGY_TABS,
  type StrategyTab,
  strategyToSend,
  tabOfPath,
} from './strategy-draft';
import { defaultParameters, StrategyParameters } from './strategy-parameters';
import { StrategyTabs } from './strategy-tabs';
import { emptyVariant, VariantFields } from './variant-fields';

interface Props {
  project: string;
  feature: string;
  environment: string;
  strategy: Strategy | null;
  types: StrategyType[];
  contextFields: ContextField[];
  segments: Segment[];
}

/** Every field of a strategy, in three tabs (General, Targeting, Variants) saved together. */
export function StrategyForm({
  project,
  feature,
  environment,
  strategy,
  types,
  contextFields,
  segments,
}: Props) {
  const [initial] = useState(() => draftOf(strategy, feature));
  const form = useForm<Draft>(initial);
  const { values } = form;
  const [tab, setTab] = useState<StrategyTab>('general');
  const type = types.find((t) => t.name === values.name);
  const back = flagHref(project, feature);
  const base = `${featurePath(project, feature)}/environments/${seg(environment)}/strategies`;
  const dirty = JSON.stringify(values) !== JSON.stringify(initial);
  const guard = useLeaveGuard(dirty, 'this strategy');
  const problems = (id: StrategyTab) => form.problemPaths.filter((p) => tabOfPath(p) === id).length;
  // A problem on a tab out of sight: show that tab.
  const firstProblem = form.problemPaths[0];
  useEffect(() => {
    if (firstProblem !== undefined) setTab(tabOfPath(firstProblem));
  }, [firstProblem]);

  const drafted = useDraftEnvironments(project)?.has(environment) ?? false;

  const save = async (draft: Draft) => {
    const body = strategyToSend(draft, strategy);
    const change = strategy
      ? { feature, action: 'updateStrategy' as const, payload: { ...body, id: strategy.id } }
      : { feature, action: 'addStrategy' as const, payload: body };
    await changeOrDraft(project, environment, change, () =>
      strategy ? api.put(`${base}/${seg(strategy.id)}`, body) : api.post(base, body),
    );
    guard.release();
    navigate(back);
  };
  const panel = (id: StrategyTab) => ({
    id: `strategy-${id}`,
    role: 'tabpanel' as const,
    'aria-labelledby': `strategy-${id}-tab`,
    hidden: tab !== id,
    class: 'tab-panel strategy-panel',
  });
  return (
    <Form label={`Strategy in ${environment}`} error={form.error} onSubmit={form.onSubmit(save)}>
      {drafted && (
        <p class="draft-note">
          {environment} takes changes through change requests: saving adds this change to your draft, to be
          reviewed before it is made.
        </p>
      )}
      <StrategyTabs
        tabs={STRATEGY_TABS.map((t) => ({ ...t, problems: problems(t.id) }))}
        current={tab}
        onTab={setTab}
      />
      <div {...panel('general')}>
        <SelectField
          label="Strategy type"
          value={values.name}
          choices={types
            .filter((t) => !t.deprecated || t.name === values.name)
            .map((t) => ({ value: t.name, label: t.displayName || t.name }))}
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
        <CheckboxField
          label="Disabled"
          hint="A disabled strategy is kept but not evaluated."
          {...form.checkbox('disabled')}
        />
      </div>
      <div {...panel('targeting')}>
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
      </div>
      <div {...panel('variants')}>
        <p class="muted">
          What SDKs get as the variant when this strategy lets a user in; they come before the flag's own
          variants in {environment}. Variants that share the rest split what fixed ones leave of 100%.
        </p>
        {values.variants.length === 0 && <p>No variants: the flag's variants in {environment} apply.</p>}
        <VariantFields
          drafts={values.variants}
          onChange={(variants) => form.set('variants', variants)}
          errorOf={(i, field) => form.errorAt(`variants.${i}.${field}`)}
        />
        <Button onClick={() => form.set('variants', [...values.variants, emptyVariant()])}>
          Add variant
        </Button>
      </div>
      <div class="actions">
        <Button type="submit" variant="primary" busy={form.submitting}>
          {drafted ? 'Add to draft' : strategy ? 'Save strategy' : 'Add strategy'}
        </Button>
        <Link href={back} class="button button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
