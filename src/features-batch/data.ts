import type { Static, TSchema } from '@sinclair/typebox';
import { compileCheck, itemPath, throwIfProblems } from '../http/check.js';
import type { ErrorDetail } from '../http/errors.js';
import {
  ContextFieldItem,
  DependencyItem,
  FeatureEnvironmentItem,
  FeatureItem,
  FeatureTagItem,
  type ImportBody,
  LinkItem,
  SegmentItem,
  StrategyItem,
  TagTypeItem,
} from './schemas.js';

type Item<T extends TSchema> = Static<T> & { at: string };

/** The `data` of an import, every element of the shape its list asks for, each with where it sits. */
export interface ImportData {
  features: Item<typeof FeatureItem>[];
  featureStrategies: Item<typeof StrategyItem>[];
  featureEnvironments: (Item<typeof FeatureEnvironmentItem> & { featureName: string })[];
  contextFields: Item<typeof ContextFieldItem>[];
  featureTags: Item<typeof FeatureTagItem>[];
  segments: Item<typeof SegmentItem>[];
  tagTypes: Item<typeof TagTypeItem>[];
  dependencies: Item<typeof DependencyItem>[];
  links: Item<typeof LinkItem>[];
}

const CHECKS = {
  features: compileCheck(FeatureItem),
  featureStrategies: compileCheck(StrategyItem),
  featureEnvironments: compileCheck(FeatureEnvironmentItem),
  contextFields: compileCheck(ContextFieldItem),
  featureTags: compileCheck(FeatureTagItem),
  segments: compileCheck(SegmentItem),
  tagTypes: compileCheck(TagTypeItem),
  dependencies: compileCheck(DependencyItem),
  links: compileCheck(LinkItem),
};

/** Problems with their paths as lists show them: `data.featureStrategies[3].constraints[0].operator`. */
export function placed(problems: ErrorDetail[]): ErrorDetail[] {
  return problems.map((p) => {
    if (p.path === undefined) return p;
    const path = itemPath(p.path);
    return { path, message: p.message.split(p.path).join(path) };
  });
}

/** Every element checked against its list's rules, or one 400 listing each that is not. */
export function readData(data: Static<typeof ImportBody>['data']): ImportData {
  const problems: ErrorDetail[] = [];
  const read = {} as Record<keyof ImportData, unknown[]>;
  for (const name of Object.keys(CHECKS) as (keyof ImportData)[]) {
    read[name] = [];
    (data[name] ?? []).forEach((element, i) => {
      const at = `data.${name}.${i}`;
      const found = CHECKS[name].problems(element, at);
      if (found.length > 0) problems.push(...found);
      else read[name].push({ ...(element as object), at });
    });
  }
  const items = read as unknown as ImportData;
  items.featureEnvironments = items.featureEnvironments.flatMap((e) => {
    const featureName = e.featureName ?? e.name;
    if (featureName !== undefined) return [{ ...e, featureName }];
    problems.push({ path: `${e.at}.featureName`, message: 'The `featureName` property is required.' });
    return [];
  });
  throwIfProblems(placed(problems));
  return items;
}
