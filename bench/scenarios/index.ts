import { access } from './access.js';
import { banners } from './banners.js';
import { client } from './client.js';
import { features } from './features.js';
import { foundation } from './foundation.js';
import { frontend } from './frontend.js';
import { state } from './state.js';
import { strategies } from './strategies.js';
import type { Scenario } from './types.js';

/**
 * Every scenario `npm run bench` runs, in order (`BENCH_SCENARIOS=client,access` runs only those).
 * Add a file beside this one and list it here.
 */
export const scenarios: Record<string, Scenario> = {
  foundation,
  features,
  strategies,
  access,
  banners,
  client,
  frontend,
  state,
};
