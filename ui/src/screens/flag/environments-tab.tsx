import { useState } from 'preact/hooks';
import { api, featurePath, seg } from '../../api/client';
import type { FeatureEnvironment, Segment, Strategy, StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { changeOrDraft, useDraftEnvironments } from '../../change-requests/drafts';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { EnvironmentSwitch } from '../../components/environment-switch';
import { Empty, Problem } from '../../components/status';
import { Link } from '../../router';
import { useCan } from '../../session';
import { flagHref } from '../../shared/links';
import { EnvironmentRelease } from '../release-plans/environment-release';
import { CopyTo } from './copy-to';
import type { FlagTabProps } from './flag-tab';
import { StrategySummary } from './strategy-summary';

interface PanelProps extends FlagTabProps {
  environment: FeatureEnvironment;
  segments: Segment[];
  /** The display names of the strategy types, by name. */
  typeNames: Record<string, string>;
}

const strategiesPath = (project: string, flag: string, environment: string) =>
  `${featurePath(project, flag)}/environments/${seg(environment)}/strategies`;

/** A strategy as a new one elsewhere: all it holds but its id and its place in the list. */
function copyOf({ id: _id, sortOrder: _sortOrder, ...strategy }: Strategy) {
  return strategy;
}

function strategyHref(project: string, flag: string, environment: string, strategyId = 'new'): string {
  return `${flagHref(project, flag)}/strategies/${encodeURIComponent(strategyId)}?environment=${encodeURIComponent(environment)}`;
}

function StrategyCard({
  project,
  feature,
  environment,
  strategy,
  position,
  segments,
  typeNames,
  onMove,
  onDelete,
  run,
}: PanelProps & {
  strategy: Strategy;
  position: number;
  onMove(by: number): void;
  /** Deletes the strategy, run by `run` (the panel's, which shows its error and reads the flag again). */
  onDelete(): Promise<unknown>;
  run(action: () => Promise<unknown>): Promise<void>;
}) {
  const scope = { project, environment: environment.name };
  const canUpdate = useCan('UPDATE_FEATURE_STRATEGY', scope);
  const canDelete = useCan('DELETE_FEATURE_STRATEGY', scope);
  const drafted = useDraftEnvironments(project)?.has(environment.name) ?? false;
  const typeName = typeNames[strategy.name] ?? strategy.name;
  const title = strategy.title || typeName;
  const last = environment.strategies.length - 1;
  const only = environment.enabled && environment.strategies.length === 1;
  return (
    <li class={`card strategy-card${strategy.disabled ? ' strategy-disabled' : ''}`}>
      <div class="strategy-head">
        <h4>
          {title}
          {strategy.title && <span class="muted"> ({typeName})</span>}
          {strategy.disabled && <span class="badge">disabled</span>}
        </h4>
        <div class="actions">
          {canUpdate && (
            <>
              <Button
                variant="quiet"
                onClick={() => onMove(-1)}
                disabled={position === 0}
                aria-label={`Move ${title} up`}
              >
                ↑
              </Button>
              <Button
                variant="quiet"
                onClick={() => onMove(1)}
                disabled={position === last}
                aria-label={`Move ${title} down`}
              >
                ↓
              </Button>
              <Link
                href={strategyHref(project, feature.name, environment.name, strategy.id)}
                class="button button-secondary"
                aria-label={`Edit ${title} in ${environment.name}`}
              >
                Edit
              </Link>
              <CopyTo
                what={`the strategy “${title}”`}
                from={environment.name}
                environments={feature.environments}
                onCopy={(to) =>
                  run(() =>
                    changeOrDraft(
                      project,
                      to,
                      { feature: feature.name, action: 'addStrategy', payload: copyOf(strategy) },
                      () => api.post(strategiesPath(project, feature.name, to), copyOf(strategy)),
                    ),
                  )
                }
              />
            </>
          )}
          {canDelete && (
            <DeleteButton
              confirm={{
                title: `Delete the strategy “${title}” from ${environment.name}?`,
                body: (
                  <>
                    <p>
                      {only
                        ? `It is the only strategy in ${environment.name}: deleting it turns the flag off there.`
                        : `Users it selects no longer get the flag in ${environment.name} through it.`}
                    </p>
                    {drafted && <p>The deletion goes to your draft change request, made once applied.</p>}
                  </>
                ),
                confirmLabel: drafted ? 'Add to draft' : 'Delete strategy',
              }}
              onDelete={onDelete}
              action={{ run }}
              aria-label={`Delete ${title} from ${environment.name}`}
            />
          )}
        </div>
      </div>
      <StrategySummary strategy={strategy} segments={segments} />
    </li>
  );
}

function EnvironmentPanel(props: PanelProps) {
  const { project, feature, environment, reload } = props;
  const canAdd = useCan('CREATE_FEATURE_STRATEGY', { project, environment: environment.name });
  const [problem, setProblem] = useState<string>();
  const base = strategiesPath(project, feature.name, environment.name);

  const run = async (action: () => Promise<unknown>) => {
    setProblem(undefined);
    try {
      await action();
      await reload();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  const move = (index: number, by: number) => {
    const order = [...environment.strategies];
    const [moved] = order.splice(index, 1);
    order.splice(index + by, 0, moved!);
    const payload = order.map((s, sortOrder) => ({ id: s.id, sortOrder }));
    return run(() =>
      changeOrDraft(
        project,
        environment.name,
        { feature: feature.name, action: 'reorderStrategy', payload },
        () => api.post(`${base}/set-sort-order`, payload),
      ),
    );
  };
  return (
    <section
      class={`card environment-panel environment-${environment.type}`}
      aria-labelledby={`env-${environment.name}`}
    >
      <header class="environment-head">
        <h3 id={`env-${environment.name}`}>
          {environment.name}
          {environment.type !== environment.name && (
            <span class={`badge badge-env-${environment.type}`}>{environment.type}</span>
          )}
        </h3>
        <EnvironmentSwitch
          project={project}
          feature={feature.name}
          environment={environment}
          onSwitched={() => reload()}
          onError={setProblem}
          showState
        />
      </header>
      <Problem message={problem} />
      <EnvironmentRelease {...props} />
      {environment.strategies.length === 0 ? (
        <Empty>No strategies yet: turning the flag on here adds a gradual rollout to 100%.</Empty>
      ) : (
        <ol class="strategy-list" aria-label={`Strategies in ${environment.name}, in evaluation order`}>
          {environment.strategies.map((strategy, i) => (
            <StrategyCard
              key={strategy.id}
              {...props}
              strategy={strategy}
              position={i}
              onMove={(by) => move(i, by)}
              onDelete={() =>
                changeOrDraft(
                  project,
                  environment.name,
                  { feature: feature.name, action: 'deleteStrategy', payload: { id: strategy.id } },
                  () => api.del(`${base}/${seg(strategy.id)}`),
                )
              }
              run={run}
            />
          ))}
        </ol>
      )}
      {canAdd && (
        <Link href={strategyHref(project, feature.name, environment.name)} class="button button-secondary">
          Add strategy in {environment.name}
        </Link>
      )}
    </section>
  );
}

/** Each environment of the flag: its switch and its strategies, in the order SDKs evaluate them. */
export function EnvironmentsTab(props: FlagTabProps) {
  const segments = useResource<{ segments: Segment[] }>('/api/admin/segments');
  const types = useResource<{ strategies: StrategyType[] }>('/api/admin/strategies');
  const typeNames = Object.fromEntries(
    (types.data?.strategies ?? []).map((t) => [t.name, t.displayName || t.name]),
  );
  return (
    <div class="environment-panels">
      {props.feature.environments.map((environment) => (
        <EnvironmentPanel
          key={environment.name}
          {...props}
          environment={environment}
          segments={segments.data?.segments ?? []}
          typeNames={typeNames}
        />
      ))}
    </div>
  );
}
