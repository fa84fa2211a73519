import { Button } from '../../components/button';
import { TextField } from '../../components/fields';
import { MilestoneStrategyFields, type StrategyChoices } from './milestone-strategy-fields';
import { type MilestoneDraft, newStrategy } from './template-draft';

interface Props extends StrategyChoices {
  milestone: MilestoneDraft;
  index: number;
  count: number;
  onChange(milestone: MilestoneDraft): void;
  onMove(by: number): void;
  onRemove(): void;
  errorAt(path: string): string | undefined;
}

/** One milestone of a template: its name and the strategies a plan serves while it is the started one. */
export function MilestoneFields({
  milestone,
  index,
  count,
  onChange,
  onMove,
  onRemove,
  errorAt,
  ...choices
}: Props) {
  const at = `milestones.${index}`;
  const label = milestone.name.trim() || `Milestone ${index + 1}`;
  const strategies = milestone.strategies;
  const setStrategies = (list: MilestoneDraft['strategies']) => onChange({ ...milestone, strategies: list });
  return (
    <li class="card milestone-editor">
      <fieldset class="plain">
        <legend class="milestone-legend">
          <span class="milestone-number">{index + 1}</span> {label}
        </legend>
        <TextField
          label="Milestone name"
          required
          value={milestone.name}
          onValue={(name) => onChange({ ...milestone, name })}
          error={errorAt(`${at}.name`)}
        />
        {errorAt(`${at}.strategies`) && <p class="field-error">{errorAt(`${at}.strategies`)}</p>}
        {strategies.length === 0 && <p class="muted">No strategy: while it runs, the plan serves nothing.</p>}
        {strategies.map((strategy, s) => (
          <MilestoneStrategyFields
            key={strategy.key}
            {...choices}
            strategy={strategy}
            label={`Strategy ${s + 1} of ${label}`}
            onChange={(changed) => setStrategies(strategies.map((x, i) => (i === s ? changed : x)))}
            onRemove={() => setStrategies(strategies.filter((_, i) => i !== s))}
            errorAt={(path) => errorAt(`${at}.strategies.${s}.${path}`)}
          />
        ))}
        <div class="actions">
          <Button onClick={() => setStrategies([...strategies, newStrategy()])}>
            Add strategy to {label}
          </Button>
          <Button
            variant="quiet"
            onClick={() => onMove(-1)}
            disabled={index === 0}
            aria-label={`Move ${label} up`}
          >
            ↑
          </Button>
          <Button
            variant="quiet"
            onClick={() => onMove(1)}
            disabled={index === count - 1}
            aria-label={`Move ${label} down`}
          >
            ↓
          </Button>
          <Button
            variant="danger"
            onClick={onRemove}
            disabled={count === 1}
            aria-label={`Remove milestone ${label}`}
          >
            Remove milestone
          </Button>
        </div>
      </fieldset>
    </li>
  );
}
