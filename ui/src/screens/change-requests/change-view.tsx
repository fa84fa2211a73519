import type { Change } from '../../change-requests/types';
import { diff, type FieldChange } from '../../events/diff';
import { ChangeTable } from '../../events/event-changes';

type Fields = Record<string, unknown>;

const quoted = (name: unknown) => `“${String(name)}”`;

/** A strategy as people know it: its title, or its type. */
function strategyName(fields: Fields | undefined): string {
  return quoted(fields?.title || fields?.name || 'strategy');
}

/** What the change does, in a sentence. */
export function describeChange(change: Change, environment: string): string {
  const { payload } = change;
  const before = payload.snapshot;
  switch (change.action) {
    case 'updateEnabled':
      return `Turn the flag ${payload.enabled ? 'on' : 'off'} in ${environment}`;
    case 'addStrategy':
      return `Add the strategy ${strategyName(payload)}`;
    case 'updateStrategy':
      return `Change the strategy ${strategyName(before ?? payload)}`;
    case 'deleteStrategy':
      return `Delete the strategy ${before ? strategyName(before) : quoted(payload.id)}`;
    case 'reorderStrategy':
      return 'Put the strategies in a new order';
    case 'patchVariant':
      return `Set the variants in ${environment}`;
    case 'archiveFeature':
      return 'Archive the flag';
    case 'addDependency':
      return `Make the flag depend on ${quoted(payload.feature)}${payload.enabled === false ? ' being off' : ''}`;
    case 'deleteDependency':
      return 'Remove the flag’s dependency';
    case 'addReleasePlan':
      return `Add a release plan from the template ${quoted(payload.templateId)}`;
    case 'deleteReleasePlan':
      return 'Remove the release plan';
    case 'startMilestone':
      return 'Start a milestone of the release plan';
    case 'changeMilestoneProgression':
      return 'Set when a milestone moves on to the next by itself';
    case 'deleteMilestoneProgression':
      return 'Stop a milestone moving on to the next by itself';
    case 'resumeMilestoneProgression':
      return 'Resume the release plan’s automatic progressions';
    case 'updateMilestoneStrategy':
      return `Change the milestone strategy ${strategyName(payload)}`;
    case 'updateSegment':
      return `Change the segment ${quoted(before?.name ?? payload.name)}`;
    case 'deleteSegment':
      return `Delete the segment ${quoted(before?.name ?? payload.id)}`;
    default:
      return String(change.action);
  }
}

/** The fields of an object but those named: ids and places that say nothing to a reviewer. */
function without(fields: Fields | undefined, ...names: string[]): Fields {
  return Object.fromEntries(Object.entries(fields ?? {}).filter(([key]) => !names.includes(key)));
}

/** Only the fields the change sets: a field it leaves out is kept as it is, not removed. */
function pick(fields: Fields | undefined, names: string[]): Fields {
  return Object.fromEntries(names.filter((n) => fields && n in fields).map((n) => [n, fields![n]]));
}

/** Variants by name, so that a row of the diff reads `blue.weight` rather than `0.weight`. */
function byName(variants: unknown): Fields {
  if (!Array.isArray(variants)) return {};
  return Object.fromEntries(variants.map((v: Fields, i) => [String(v?.name ?? i), without(v, 'name')]));
}

/** The fields the change sets against what they were when it was added; none for a sentence-only change. */
export function fieldChanges(change: Change): FieldChange[] | undefined {
  const { snapshot, ...after } = change.payload;
  switch (change.action) {
    case 'addStrategy':
    case 'updateMilestoneStrategy':
      return diff({}, without(after, 'id', 'sortOrder'));
    case 'updateStrategy':
    case 'updateSegment': {
      const set = without(after, 'id', 'sortOrder');
      return diff(pick(snapshot, Object.keys(set)), set);
    }
    case 'deleteStrategy':
    case 'deleteSegment':
      return snapshot ? diff(without(snapshot, 'id', 'sortOrder'), {}) : undefined;
    case 'patchVariant':
      return diff(byName(snapshot?.variants), byName(after.variants));
    default:
      return undefined;
  }
}

/** A change: what it does, its fields before and after, and why it conflicts, if it does. */
export function ChangeView({ change, environment }: { change: Change; environment: string }) {
  const fields = fieldChanges(change);
  return (
    <>
      <p class="change-summary">{describeChange(change, environment)}</p>
      {change.conflict && (
        <p class="conflict">
          <strong>Conflict:</strong> {change.conflict}
        </p>
      )}
      {fields ? (
        <ChangeTable changes={fields} />
      ) : (
        // What the sentence does not say (a plan's ids, a progression's timing), as it was sent.
        Object.keys(without(change.payload, 'snapshot', 'enabled')).length > 0 && (
          <details class="event-changes">
            <summary>Details</summary>
            <pre>{JSON.stringify(without(change.payload, 'snapshot'), null, 2)}</pre>
          </details>
        )
      )}
    </>
  );
}
