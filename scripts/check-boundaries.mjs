// The rooms of src/ stay apart (see "Develop" in the README): run by `npm run check:boundaries`
// and by .ci/run. It reads every import between the folders of src/ and fails when
//   - http/, db/, log.ts, config.ts or secrets.ts import anything above them (the ground floor);
//   - the areas import each other in a cycle. Routes (routes.ts, *-routes.ts) sit on top: they may
//     call any area's exported functions and are left out of the area graph, as are tests.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../src');
// Type-only imports are left out: the compiler removes them, so they order nothing at run time.
const GROUND = new Set(['http', 'db', 'log.ts', 'config.ts', 'secrets.ts']);

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

function areaOf(file) {
  const rel = path.relative(SRC, file);
  const [first] = rel.split(path.sep);
  return rel.includes(path.sep) ? first : rel;
}

const isRoute = (file) =>
  /(^|[-/])routes\.ts$/.test(path.basename(file)) || path.basename(file) === 'routes.ts';
const isTest = (file) => file.endsWith('.test.ts');

const edges = new Map();
const problems = [];
for (const file of files(SRC)) {
  if (isTest(file)) continue;
  const from = areaOf(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^import\s(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)) {
    const target = path.resolve(path.dirname(file), m[1]).replace(/\.js$/, '.ts');
    const to = areaOf(target);
    if (to === from) continue;
    if (GROUND.has(from) && !GROUND.has(to)) {
      problems.push(
        `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}: ${from} is the ground floor`,
      );
    }
    if (isRoute(file) || !target.startsWith(SRC)) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, path.relative(SRC, file));
  }
}

// Cycles between areas: a depth-first search reporting each cycle once, by its members.
const seen = new Set();
const reported = new Set();
function visit(area, stack) {
  if (stack.includes(area)) {
    const cycle = stack.slice(stack.indexOf(area));
    const key = [...cycle].sort().join(' ');
    if (!reported.has(key)) {
      reported.add(key);
      const steps = cycle.map(
        (a, i) =>
          `${a} → ${cycle[(i + 1) % cycle.length]} (${edges.get(a).get(cycle[(i + 1) % cycle.length])})`,
      );
      problems.push(`areas import each other in a cycle:\n    ${steps.join('\n    ')}`);
    }
    return;
  }
  if (seen.has(area)) return;
  for (const next of edges.get(area)?.keys() ?? []) visit(next, [...stack, area]);
  seen.add(area);
}
for (const area of edges.keys()) visit(area, []);

if (problems.length > 0) {
  console.error(`check-boundaries: ${problems.length} problem(s)\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`check-boundaries: ${edges.size} areas, no cycles, the ground floor imports nothing above it`);
