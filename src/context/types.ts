export interface LegalValue {
  value: string;
  description?: string;
}

export interface ContextField {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  /** Null: a field of the whole instance. */
  project: string | null;
  createdAt: Date;
}
