import type { Evaluation, Outcome } from '../client/evaluation/evaluate.js';

/** OFREP's reasons for Flagpole's outcomes. */
const REASONS: Record<Outcome, string> = {
  off: 'DISABLED',
  unmatched: 'DEFAULT',
  matched: 'TARGETING_MATCH',
  split: 'SPLIT',
};

export interface FlagFacts {
  name: string;
  project: string;
  impressionData?: boolean;
}

export type Resolution =
  | {
      key: string;
      value: unknown;
      variant: string;
      reason: string;
      metadata: Record<string, string | boolean>;
    }
  | { key: string; errorCode: 'PARSE_ERROR'; errorDetails: string };

/** A payload's value in the type its payload says; undefined when it cannot be read as that type. */
function payloadValue(type: string, value: string): { value: unknown } | undefined {
  if (type === 'number') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? { value: n } : undefined;
  }
  if (type === 'json') {
    try {
      return { value: JSON.parse(value) };
    } catch {
      return undefined;
    }
  }
  // `string`, and `csv`, which has no OFREP type of its own: the text as it is.
  return { value };
}

/**
 * An evaluation as OFREP answers it. OFREP requests carry no type, so the flag's form decides:
 * without a variant to give (no variants, or off for this context) a flag is a boolean, its
 * `enabled`, with the variant `on` or `off`; with one, the variant's payload in its own type
 * (`number` a JSON number, `json` the parsed value, `string` and `csv` the text), or the
 * variant's name when it has no payload. A provider asking for another type reports
 * TYPE_MISMATCH and gives its default. A payload that is not what its type says is a PARSE_ERROR.
 */
export function resolve(flag: FlagFacts, evaluation: Evaluation): Resolution {
  const { enabled, variant, outcome } = evaluation;
  const metadata = {
    featureEnabled: enabled,
    variantEnabled: variant.enabled,
    project: flag.project,
    impressionData: flag.impressionData === true,
  };
  const reason = REASONS[outcome];
  if (!enabled || !variant.enabled) {
    return { key: flag.name, value: enabled, variant: enabled ? 'on' : 'off', reason, metadata };
  }
  const payload = variant.payload;
  const read = payload ? payloadValue(payload.type, payload.value) : { value: variant.name };
  if (!read) {
    return {
      key: flag.name,
      errorCode: 'PARSE_ERROR',
      errorDetails: `The payload of the variant "${variant.name}" is not a valid ${payload!.type}.`,
    };
  }
  return { key: flag.name, value: read.value, variant: variant.name, reason, metadata };
}
