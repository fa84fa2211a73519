import { randomUUID } from 'node:crypto';
import type { ContextFields } from '../constraints/rules.js';
import { checkConstraints } from '../constraints/service.js';
import type { StrategyRow } from '../features/import/service.js';
import { prepareVariants } from '../features/variants/rules.js';
import { attempt } from '../http/check.js';
import type { ErrorDetail } from '../http/errors.js';
import { segmentUsableIn } from '../segments/service.js';
import { normalizeParameters } from '../strategies/parameters.js';
import type { Findings, Instance } from './analysis.js';
import type { ImportData } from './data.js';

/** A strategy as the import would store it, with the ids of the segments it uses here. */
export interface PlannedStrategy {
  row: StrategyRow;
  segments: number[];
}

/** What decides whether two lists of strategies behave the same: everything but ids. */
export function behaviour(
  s: Omit<StrategyRow, 'id' | 'featureName' | 'environment' | 'sortOrder'> & { segments: number[] },
) {
  return {
    name: s.name,
    title: s.title,
    disabled: s.disabled,
    parameters: s.parameters,
    constraints: s.constraints,
    variants: s.variants,
    segments: s.segments,
  };
}

/**
 * The strategies the data gives one feature, in the target environment, checked by the rules of
 * a strategy created by hand. Segments are matched by name: the data's ids are those of the
 * instance it came from.
 */
export function planStrategiesOf(
  featureName: string,
  strategies: ImportData['featureStrategies'],
  context: {
    data: ImportData;
    instance: Instance;
    rules: ContextFields;
    errors: Findings;
    warnings: Findings;
  },
): PlannedStrategy[] {
  const { data, instance, rules, errors, warnings } = context;
  const segmentNames = new Map(data.segments.map((s) => [s.id, s.name]));
  const problems: ErrorDetail[] = [];
  const planned = strategies.map((s, position) => {
    const type = instance.strategyTypes.get(s.name);
    if (!type) errors.add('These strategy types do not exist here; create them first:', s.name);
    else if (!type.builtIn) {
      warnings.add(
        'These custom strategy types are used; make sure their parameters mean the same here:',
        s.name,
      );
    }
    const segments = (s.segments ?? []).flatMap((id, i) => {
      const name = segmentNames.get(id);
      const segment = name === undefined ? undefined : instance.segments.get(name);
      if (name === undefined) {
        problems.push({
          path: `${s.at}.segments.${i}`,
          message: `The segment ${id} is not listed in \`data.segments\`.`,
        });
      } else if (!segment) {
        errors.add('These segments do not exist here; create them first:', name);
      } else if (!segmentUsableIn(segment, instance.project)) {
        problems.push({
          path: `${s.at}.segments.${i}`,
          message: `The segment "${name}" belongs to another project than "${instance.project}".`,
        });
      }
      return segment ? [segment.id] : [];
    });
    const stickiness = instance.defaultStickiness || 'default';
    const row: StrategyRow = {
      id: randomUUID(),
      featureName,
      environment: instance.environment,
      name: s.name,
      title: s.title ?? null,
      disabled: s.disabled ?? false,
      parameters:
        attempt(problems, s.at, () =>
          normalizeParameters(s.name, s.parameters, { groupId: featureName, stickiness }, type),
        ) ?? {},
      constraints:
        attempt(problems, s.at, () =>
          checkConstraints(rules, s.constraints ?? [], { path: `${s.at}.constraints` }),
        ) ?? [],
      variants:
        attempt(problems, `${s.at}.variants`, () => prepareVariants(s.variants ?? [], `${s.at}.variants`)) ??
        [],
      sortOrder: s.sortOrder ?? position,
    };
    return { row, segments: [...new Set(segments)].sort((a, b) => a - b) };
  });
  errors.addProblems(problems);
  return planned.sort((a, b) => a.row.sortOrder - b.row.sortOrder);
}
