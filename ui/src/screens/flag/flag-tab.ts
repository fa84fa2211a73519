import type { Feature } from '../../api/types';

/** What the flag page gives each of its tabs. */
export interface FlagTabProps {
  project: string;
  feature: Feature;
  /** Reads the flag again after a change. */
  reload(): Promise<void>;
}
