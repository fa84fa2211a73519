import type { ContextFields } from '../constraints/rules.js';
import { checkConstraints } from '../constraints/service.js';
import { attempt } from '../http/check.js';
import type { StateItems } from './document.js';
import { type Existing, tagKey } from './existing.js';
import { decide, type ImportOptions, type Known, type Plan } from './plan.js';

function planEnvironments(items: StateItems, existing: Existing, options: ImportOptions, plan: Plan): void {
  let last = Math.max(0, ...[...existing.environments.values()].map((e) => e.sortOrder));
  for (const e of items.environments) {
    const before = existing.environments.get(e.name);
    const row = {
      name: e.name,
      type: e.type,
      enabled: e.enabled ?? before?.enabled ?? true,
      sortOrder: e.sortOrder ?? before?.sortOrder ?? ++last,
    };
    const was = before && {
      name: before.name,
      type: before.type,
      enabled: before.enabled,
      sortOrder: before.sortOrder,
    };
    const change = decide(was, row, options.keep);
    if (!change) continue;
    if (before?.protected) {
      plan.problems.push({
        path: e.at,
        message: `The environment "${e.name}" is protected and cannot be changed.`,
      });
      continue;
    }
    plan.environments.push(row);
    plan.events.push({ type: 'environment-import', environment: e.name, data: row, preData: was ?? null });
  }
}

function planStrategyTypes(items: StateItems, existing: Existing, options: ImportOptions, plan: Plan): void {
  for (const t of items.strategies) {
    const before = existing.strategyTypes.get(t.name);
    // Built-in types are part of Flagpole: a document describes them, it does not change them.
    if (before?.builtIn) continue;
    const row = {
      name: t.name,
      // An export's own `title` (null included) wins over `displayName`, which falls back to the name.
      title: t.title !== undefined ? t.title : (t.displayName ?? null),
      description: t.description ?? null,
      deprecated: t.deprecated ?? false,
      parameters: (t.parameters ?? []).map((p) => ({
        name: p.name,
        type: p.type ?? 'string',
        description: p.description ?? '',
        required: p.required ?? false,
      })),
    };
    const was = before && {
      name: before.name,
      title: before.title,
      description: before.description,
      deprecated: before.deprecated,
      parameters: before.parameters,
    };
    if (!decide(was, row, options.keep)) continue;
    plan.strategyTypes.push(row);
    plan.events.push({ type: 'strategy-import', data: row, preData: was ?? null });
  }
}

/** Projects, and the environments linked to each: a new project gets those it lists, or every enabled one. */
function planProjects(
  items: StateItems,
  existing: Existing,
  options: ImportOptions,
  plan: Plan,
  known: Known,
) {
  const enabled = [...existing.environments.values()].filter((e) => e.enabled).map((e) => e.name);
  for (const e of items.environments)
    if ((e.enabled ?? true) && !enabled.includes(e.name)) enabled.push(e.name);
  for (const p of items.projects) {
    const before = existing.projects.get(p.id);
    const row = {
      id: p.id,
      name: p.name,
      description: p.description || null,
      mode: p.mode ?? 'open',
      defaultStickiness: p.defaultStickiness ?? 'default',
    };
    (p.environments ?? []).forEach((name, i) => {
      if (!known.environments.has(name)) {
        plan.problems.push({
          path: `${p.at}.environments.${i}`,
          message: `There is no environment named "${name}".`,
        });
      }
    });
    const was = before && {
      id: before.id,
      name: before.name,
      description: before.description,
      mode: before.mode,
      defaultStickiness: before.defaultStickiness,
    };
    const change = decide(was, row, options.keep);
    const linked = new Set(before?.environments ?? []);
    const wanted = before ? (options.keep ? [] : (p.environments ?? [])) : (p.environments ?? enabled);
    const added = wanted.filter((name) => !linked.has(name));
    if (change) plan.projects.push(row);
    if (change || added.length > 0) {
      plan.events.push({
        type: 'project-import',
        project: p.id,
        data: { ...row, environments: [...linked, ...added] },
        preData: was ? { ...was, environments: [...linked] } : null,
      });
    }
    for (const environment of added) plan.links.push({ project: p.id, environment });
  }
  for (const [id, p] of existing.projects) {
    known.projects.set(id, { defaultStickiness: p.defaultStickiness, environments: new Set(p.environments) });
  }
  for (const row of plan.projects) {
    const entry = known.projects.get(row.id);
    known.projects.set(row.id, {
      defaultStickiness: row.defaultStickiness,
      environments: entry?.environments ?? new Set(),
    });
  }
  for (const link of plan.links) known.projects.get(link.project)?.environments.add(link.environment);
}

function planTags(items: StateItems, existing: Existing, options: ImportOptions, plan: Plan, known: Known) {
  for (const t of items.tagTypes) {
    const row = { name: t.name, description: t.description ?? null, icon: t.icon ?? null };
    const before = existing.tagTypes.get(t.name);
    if (!decide(before, row, options.keep)) continue;
    plan.tagTypes.push(row);
    plan.events.push({ type: 'tag-type-import', data: row, preData: before ?? null });
  }
  const tags = [
    ...items.tags.map((t) => ({ at: `${t.at}.type`, type: t.type ?? 'simple', value: t.value })),
    ...items.featureTags.map((t) => ({
      at: `${t.at}.tagType`,
      type: t.tagType ?? 'simple',
      value: t.tagValue,
    })),
  ];
  const added = new Set<string>();
  for (const t of tags) {
    if (!known.tagTypes.has(t.type)) {
      plan.problems.push({
        path: t.at,
        message: `There is no tag type named "${t.type}": add it to \`tagTypes\`.`,
      });
      continue;
    }
    const key = tagKey(t.type, t.value);
    if (existing.tags.has(key) || added.has(key)) continue;
    added.add(key);
    plan.tags.push({ type: t.type, value: t.value });
    plan.events.push({ type: 'tag-import', data: { type: t.type, value: t.value } });
  }
}

function planSegments(
  items: StateItems,
  existing: Existing,
  options: ImportOptions,
  plan: Plan,
  known: Known,
) {
  const names = new Map([...existing.segments.values()].map((s) => [s.name, s.id]));
  for (const s of items.segments) {
    const constraints = attempt(plan.problems, s.at, () =>
      checkConstraints(known.contextRules, s.constraints, { path: `${s.at}.constraints` }),
    );
    const project = s.project ?? null;
    if (project !== null && !known.projects.has(project)) {
      plan.problems.push({
        path: `${s.at}.project`,
        message: `There is no project with the id "${project}" to hold the segment.`,
      });
    }
    const before = existing.segments.get(s.id);
    const row = {
      id: s.id,
      name: s.name,
      description: s.description || null,
      project,
      constraints: constraints ?? [],
    };
    const change = decide(
      before && {
        id: before.id,
        name: before.name,
        description: before.description,
        project: before.project,
        constraints: before.constraints,
      },
      row,
      options.keep,
    );
    const final = change ? row : before!;
    known.segments.set(s.id, { name: final.name, project: final.project });
    if (!change) continue;
    const holder = names.get(s.name);
    if (holder !== undefined && holder !== s.id) {
      plan.problems.push({
        path: `${s.at}.name`,
        message: `The segment ${holder} is already named "${s.name}".`,
      });
    }
    // As when a segment is changed by hand: it is limited to a project only if no strategy elsewhere uses it.
    const elsewhere = (existing.segmentUsers.get(s.id) ?? []).filter(
      (p) => project !== null && p !== project,
    );
    if (elsewhere.length > 0) {
      plan.problems.push({
        path: `${s.at}.project`,
        message: `The segment ${s.id} is used by strategies of the project${elsewhere.length === 1 ? '' : 's'} ${elsewhere.join(', ')}: it cannot be limited to "${project}".`,
      });
    }
    plan.segments.push({ ...row, createdBy: s.createdBy ?? null, createdAt: s.createdAt ?? null });
    plan.events.push({ type: 'segment-import', project, data: row, preData: before ?? null });
  }
}

/** The configuration around features: environments, strategy types, projects, tags, segments. */
export function planConfiguration(
  items: StateItems,
  existing: Existing,
  options: ImportOptions,
  contextRules: ContextFields,
): { plan: Plan; known: Known } {
  const plan: Plan = {
    environments: [],
    strategyTypes: [],
    projects: [],
    links: [],
    tagTypes: [],
    tags: [],
    segments: [],
    features: { features: [], environments: [], strategies: [], strategySegments: new Map(), tags: [] },
    events: [],
    problems: [],
  };
  const known: Known = {
    environments: new Set([...existing.environments.keys(), ...items.environments.map((e) => e.name)]),
    strategyTypes: new Map(existing.strategyTypes),
    projects: new Map(),
    segments: new Map(
      [...existing.segments.values()].map((s) => [s.id, { name: s.name, project: s.project }]),
    ),
    tagTypes: new Set([...existing.tagTypes.keys(), ...items.tagTypes.map((t) => t.name)]),
    contextRules,
  };
  planEnvironments(items, existing, options, plan);
  planStrategyTypes(items, existing, options, plan);
  for (const row of plan.strategyTypes) known.strategyTypes.set(row.name, { ...row, builtIn: false });
  planProjects(items, existing, options, plan, known);
  planTags(items, existing, options, plan, known);
  planSegments(items, existing, options, plan, known);
  return { plan, known };
}
