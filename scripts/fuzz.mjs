// `npm run fuzz [-- --seed N] [--long] [--requests N] [--minutes M]`: the schema fuzzer
// (test/fuzz/api.fuzz.ts) on a database of its own, made and dropped by the test harness: the
// embedded one, or PostgreSQL when DATABASE_URL is set. Without --seed it picks one and prints it;
// the same seed sends the same requests again. It fails when the requests take longer than the
// minutes given.
// `npm run fuzz -- --cost`: the cost run instead (test/fuzz/cost.fuzz.ts): every operation with the
// largest inputs its schemas allow, failing on an answer over 1 s or an event-loop stall over
// 200 ms. It is the same every time, so it takes no other option.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const PRESETS = {
  default: { requests: 10_000, minutes: 15 },
  long: { requests: 100_000, minutes: 90 },
};

function parse(args) {
  const options = { ...PRESETS.default };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined || !/^\d+$/.test(v)) throw new Error(`${arg} takes a whole number`);
      return Number(v);
    };
    if (arg === '--cost') options.cost = true;
    else if (arg === '--long') Object.assign(options, PRESETS.long);
    else if (arg === '--seed') options.seed = value();
    else if (arg === '--requests') options.requests = value();
    else if (arg === '--minutes') options.minutes = value();
    else throw new Error(`unknown option ${arg} (--seed N, --long, --requests N, --minutes M, or --cost)`);
  }
  if (options.cost && args.length > 1) throw new Error('--cost takes no other option');
  options.seed ??= Math.floor(Math.random() * 2 ** 31);
  return options;
}

let options;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(`npm run fuzz: ${error.message}`);
  process.exit(2);
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = (file, env) =>
  spawnSync(process.execPath, [vitest, 'run', '--config', 'vitest.fuzz.config.ts', file], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });

if (options.cost) process.exit(run('test/fuzz/cost.fuzz.ts', {}).status ?? 1);

// The same options, with the seed that was used.
const others = process.argv.slice(2).filter((arg, i, all) => arg !== '--seed' && all[i - 1] !== '--seed');
const replay = `${process.env.DATABASE_URL ? 'DATABASE_URL=… ' : ''}npm run fuzz -- ${[...others, '--seed', options.seed].join(' ')}`;

const result = run('test/fuzz/api.fuzz.ts', {
  FUZZ_SEED: String(options.seed),
  FUZZ_REQUESTS: String(options.requests),
  FUZZ_MINUTES: String(options.minutes),
  FUZZ_REPLAY: replay,
});
if (result.status !== 0) console.error(`\nThe fuzz failed; replay it with: ${replay}`);
process.exit(result.status ?? 1);
