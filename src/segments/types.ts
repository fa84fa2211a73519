import type { Constraint } from '../constraints/rules.js';

export interface Segment {
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
  createdBy: string | null;
  createdAt: Date;
}
