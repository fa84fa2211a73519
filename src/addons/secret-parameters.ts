import type { SecretBox } from '../secrets.js';
import type { Addon } from './store.js';

/** The secret parameters of an integration, opened; a SecretKeyError when they cannot be. */
export function secretsOf(box: SecretBox, addon: Addon): Record<string, string> {
  return JSON.parse(box.open(addon.secrets)) as Record<string, string>;
}
