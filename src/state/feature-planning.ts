import type { FeatureRow } from '../features/import/service.js';
import type { FeatureRecord } from '../read-model/queries.js';
import type { StateItems } from './document.js';
import type { Existing } from './existing.js';
import type { ImportOptions, Known, Plan } from './plan.js';

/** A feature the document refers to: the project it lives in once imported, and what it was. */
export interface Target {
  project: string;
  before: FeatureRecord | undefined;
  /** The feature's row as the import writes it, when it creates or overwrites it. */
  row?: FeatureRow;
}

/** What planning a document's features works on, shared by its steps. */
export interface FeaturePlanning {
  items: StateItems;
  existing: Existing;
  options: ImportOptions;
  plan: Plan;
  known: Known;
  targets: Map<string, Target>;
  /** Features the import changes in any way: each gets one `feature-import` event. */
  touched: Set<string>;
}
