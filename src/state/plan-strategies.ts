import { checkConstraints } from '../constraints/service.js';
import type { StrategyRow } from '../features/import/service.js';
import { prepareVariants } from '../features/variants/rules.js';
import { attempt } from '../http/check.js';
import { segmentUsableIn } from '../segments/service.js';
import { normalizeParameters } from '../strategies/parameters.js';
import type { StateItems } from './document.js';
import type { FeaturePlanning } from './feature-planning.js';
import { decide, same } from './plan.js';

type Listed = { at: string; segmentId: number }[];

/** Segments as a strategy of the project may use them (known, global or of that project), sorted. */
function segmentsFor(p: FeaturePlanning, project: string, listed: Listed): number[] {
  for (const { at, segmentId } of listed) {
    const segment = p.known.segments.get(segmentId);
    if (!segment) {
      p.plan.problems.push({
        path: at,
        message: `There is no segment with the id ${segmentId}: add it to \`segments\`.`,
      });
    } else if (!segmentUsableIn(segment, project)) {
      p.plan.problems.push({
        path: at,
        message: `The segment "${segment.name}" belongs to another project than "${project}".`,
      });
    }
  }
  return [...new Set(listed.map((l) => l.segmentId))].sort((a, b) => a - b);
}

/** One strategy as stored: the rules of a strategy created by hand, each problem under `s.at`. */
function strategyRow(
  p: FeaturePlanning,
  s: StateItems['featureStrategies'][number],
  project: string,
): StrategyRow {
  const stickiness = p.known.projects.get(project)?.defaultStickiness || 'default';
  const problems = p.plan.problems;
  return {
    id: s.id,
    featureName: s.featureName,
    environment: s.environment,
    name: s.name,
    title: s.title ?? null,
    disabled: s.disabled ?? false,
    parameters:
      attempt(problems, s.at, () =>
        normalizeParameters(
          s.name,
          s.parameters,
          { groupId: s.featureName, stickiness },
          p.known.strategyTypes.get(s.name),
        ),
      ) ?? {},
    constraints:
      attempt(problems, s.at, () =>
        checkConstraints(p.known.contextRules, s.constraints ?? [], { path: `${s.at}.constraints` }),
      ) ?? [],
    variants:
      attempt(problems, `${s.at}.variants`, () => prepareVariants(s.variants ?? [], `${s.at}.variants`)) ??
      [],
    sortOrder: s.sortOrder,
  };
}

/**
 * Strategies by id, with the segments they use (their own `segments` and `featureStrategySegments`
 * alike); answers the feature environments (`feature:environment`) that have a strategy afterwards.
 */
export function planStrategies(p: FeaturePlanning, strategies: StateItems['featureStrategies']): Set<string> {
  const { plan, options, existing } = p;
  const placed = new Set<string>();
  for (const t of p.targets.values())
    for (const s of t.before?.strategies ?? []) placed.add(`${s.featureName}:${s.environment}`);
  const pairs = new Map<string, Listed>();
  for (const pair of p.items.featureStrategySegments) {
    const list = pairs.get(pair.featureStrategyId) ?? [];
    list.push({ at: `${pair.at}.segmentId`, segmentId: pair.segmentId });
    pairs.set(pair.featureStrategyId, list);
  }
  const projectsListed = new Map(p.items.features.map((f) => [f.name, f.project ?? 'default']));

  for (const s of strategies) {
    const target = p.targets.get(s.featureName)!;
    // The document's own word on the feature's project first: a strategy must agree with it.
    if (s.projectId !== undefined && s.projectId !== (projectsListed.get(s.featureName) ?? target.project)) {
      plan.problems.push({
        path: `${s.at}.projectId`,
        message: `The feature "${s.featureName}" is in the project "${target.project}", not "${s.projectId}".`,
      });
    }
    if (!p.known.strategyTypes.has(s.name)) {
      plan.problems.push({
        path: `${s.at}.name`,
        message: `There is no strategy type "${s.name}": add it to \`strategies\`.`,
      });
      continue;
    }
    const place = existing.strategies.get(s.id);
    if (place && (place.featureName !== s.featureName || place.environment !== s.environment)) {
      if (!options.keep) {
        plan.problems.push({
          path: `${s.at}.id`,
          message: `The strategy "${s.id}" belongs to the feature "${place.featureName}" in the environment "${place.environment}".`,
        });
      }
      continue;
    }
    const row = strategyRow(p, s, target.project);
    const segments = segmentsFor(p, target.project, [
      ...(s.segments ?? []).map((segmentId, i) => ({ at: `${s.at}.segments.${i}`, segmentId })),
      ...(pairs.get(s.id) ?? []),
    ]);
    pairs.delete(s.id);
    placed.add(`${s.featureName}:${s.environment}`);
    const was = target.before?.strategies.find((x) => x.id === s.id);
    const { featureName: _f, environment: _e, ...config } = row;
    const before = was && {
      id: was.id,
      name: was.name,
      title: was.title,
      disabled: was.disabled,
      parameters: was.parameters,
      constraints: was.constraints,
      variants: was.variants,
      sortOrder: was.sortOrder,
      segments: was.segments,
    };
    if (!decide(before, { ...config, segments }, options.keep)) continue;
    plan.features.strategies.push(row);
    plan.features.strategySegments.set(s.id, segments);
    p.touched.add(s.featureName);
  }

  // Segments listed for strategies the document does not list: added to what those strategies use.
  for (const [id, listed] of pairs) {
    const place = existing.strategies.get(id);
    if (!place) {
      for (const { at } of listed) {
        plan.problems.push({
          path: at.replace(/segmentId$/, 'featureStrategyId'),
          message: `There is no strategy with the id "${id}": add it to \`featureStrategies\`.`,
        });
      }
      continue;
    }
    const segments = [...new Set([...place.segments, ...segmentsFor(p, place.project, listed)])].sort(
      (a, b) => a - b,
    );
    if (same(segments, place.segments)) continue;
    plan.features.strategySegments.set(id, segments);
    p.touched.add(place.featureName);
  }
  return placed;
}
