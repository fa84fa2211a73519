// The rooms of src/ and ui/src/ stay apart (see "Develop" in the README): run by
// `npm run check:boundaries`. It reads every import of every .ts and .tsx file — type-only imports
// (`import type`, `import { type X }`, `import('./x').T`), re-exports (`export … from`) and dynamic
// `import()` included, since each of them ties one file to another as much as a plain import — and
// fails (exit 1, after printing every problem) when:
//   - files import each other in a cycle, within a folder or across folders, in src/ or in ui/src/.
//     Each knot of files that reach each other is one problem, printed with the shortest import
//     chain through each of its files. Routes (routes.ts(x), *-routes.ts(x), files in a routes/
//     folder) are the top layer: they may import any area, and so must not be part of any cycle;
//   - the areas of src/ (its first-level folders and loose files) import each other in a cycle,
//     routes left out of that graph since they sit above the areas;
//   - the ground floor (src/http/, src/db/, src/outbound/, src/log.ts, src/config.ts, src/secrets.ts) imports
//     anything of src/ above it;
//   - a file imports a store (store.ts or *-store.ts) from another folder. The rule: only the files
//     in the store's own folder import it — a nested room such as src/features/links/ is an area
//     of its own, so neither its parent nor its children reach into its store, and other areas go
//     through the room's service;
//   - a folder of src/ holds more than 20 source files directly;
//   - a source file is longer than 300 lines in src/ or 250 lines in ui/src/.
// What it still finds and lets pass is listed in scripts/boundaries-debt.txt, printed as known debt
// on every run; a line there that no longer happens fails the check too.
// Tests (*.test.ts(x)) are not counted in the sizes and may import any store and anything from the
// ground floor (they seed and inspect the database); they still count in cycles, should one ever be
// imported.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SRC = path.join(ROOT, 'src');
const TREES = [
  { dir: SRC, maxLines: 300 },
  { dir: path.join(ROOT, 'ui/src'), maxLines: 250 },
];
const GROUND = new Set(['http', 'db', 'outbound', 'log.ts', 'config.ts', 'secrets.ts']);
const MAX_FILES_PER_FOLDER = 20;

const rel = (file) => path.relative(ROOT, file);
const isSource = (name) => /\.tsx?$/.test(name);
const isTest = (file) => /\.test\.tsx?$/.test(file);
const isRoute = (file) =>
  /(^|-)routes\.tsx?$/.test(path.basename(file)) || file.split(path.sep).includes('routes');
const isStore = (file) => /^(.+-)?store\.ts$/.test(path.basename(file));

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return isSource(name) ? [full] : [];
  });
}

/** Every module a file names, with how: 'type' (erased by the compiler), 'dynamic' or 'value'. */
function importsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (specifier, kind) => {
    if (specifier && ts.isStringLiteralLike(specifier)) found.push({ specifier: specifier.text, kind });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          named &&
          ts.isNamedImports(named) &&
          named.elements.length > 0 &&
          named.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier, onlyTypes ? 'type' : 'value');
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly ? 'type' : 'value');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly ? 'type' : 'value');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], 'dynamic');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, 'type');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const all = TREES.flatMap((tree) => filesUnder(tree.dir).map((file) => ({ file, tree })));
const known = new Set(all.map(({ file }) => file));

/** The file a relative specifier names: `.js` stands for .ts/.tsx, a folder for its index. */
function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((c) => known.has(c));
}

const problems = { cycle: [], areaCycle: [], ground: [], store: [], folder: [], length: [], unresolved: [] };
const graph = new Map(); // file → Map(imported file → kind)
let importCount = 0;

for (const { file, tree } of all) {
  const text = readFileSync(file, 'utf8');
  const edges = new Map();
  graph.set(file, edges);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (!isTest(file) && lines > tree.maxLines) {
    problems.length.push(`${rel(file)} has ${lines} lines (at most ${tree.maxLines} in ${rel(tree.dir)}/)`);
  }
  for (const { specifier, kind } of importsOf(file, text)) {
    if (!specifier.startsWith('.')) continue;
    const target = resolve(file, specifier);
    if (!target) {
      // Tests import the helpers of test/, outside the trees; styles and data are no modules.
      const inTree = TREES.some(({ dir }) =>
        path.resolve(path.dirname(file), specifier).startsWith(dir + path.sep),
      );
      if (!inTree || /\.(css|svg|png|json|sql|html)$/.test(specifier)) continue;
      problems.unresolved.push(`${rel(file)} imports '${specifier}', which is no .ts or .tsx file here`);
      continue;
    }
    importCount++;
    if (!edges.has(target) || edges.get(target) !== 'value') edges.set(target, kind);
    if (isTest(file)) continue;
    const inSrc = file.startsWith(SRC + path.sep) && target.startsWith(SRC + path.sep);
    if (inSrc && GROUND.has(areaOf(file)) && !GROUND.has(areaOf(target))) {
      problems.ground.push(
        `${rel(file)} imports ${rel(target)}${note(kind)}: ${areaOf(file)} is the ground floor`,
      );
    }
    if (isStore(target) && path.dirname(target) !== path.dirname(file)) {
      problems.store.push(
        `${rel(file)} imports ${rel(target)}${note(kind)}: only the files of ${rel(path.dirname(target))}/ use its store`,
      );
    }
  }
}

function areaOf(file) {
  const [first] = path.relative(SRC, file).split(path.sep);
  return first;
}

function note(kind) {
  return kind === 'value' ? '' : ` (${kind} import)`;
}

for (const dir of new Set(
  all.filter(({ file }) => file.startsWith(SRC)).map(({ file }) => path.dirname(file)),
)) {
  const count = readdirSync(dir).filter((name) => isSource(name) && !isTest(name)).length;
  if (count > MAX_FILES_PER_FOLDER) {
    problems.folder.push(`${rel(dir)}/ holds ${count} source files (at most ${MAX_FILES_PER_FOLDER})`);
  }
}

/** Tarjan's strongly connected components: the knots of nodes that all reach each other. */
function knots(nodes, next) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const result = [];
  const connect = (v) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), order.get(w)));
      }
    }
    if (low.get(v) === order.get(v)) {
      const knot = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        knot.push(w);
      } while (w !== v);
      if (knot.length > 1 || next(v).includes(v)) result.push(knot.sort());
    }
  };
  for (const v of nodes) if (!order.has(v)) connect(v);
  return result;
}

/** The shortest cycle through `start` inside its knot, as the list of its nodes. */
function shortestCycle(start, members, next) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of next(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const cycle = [];
        for (let u = v; u !== null; u = parent.get(u)) cycle.unshift(u);
        return cycle;
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** Each knot once, with the distinct shortest cycles through its members (rotated to start at their least node). */
function cyclesOf(nodes, next) {
  return knots(nodes, next).map((knot) => {
    const members = new Set(knot);
    const cycles = new Map();
    for (const start of knot) {
      const cycle = shortestCycle(start, members, next);
      const least = cycle.indexOf([...cycle].sort()[0]);
      const rotated = [...cycle.slice(least), ...cycle.slice(0, least)];
      cycles.set(rotated.join('\0'), rotated);
    }
    return { knot, cycles: [...cycles.values()] };
  });
}

const fileNext = (file) => [...(graph.get(file)?.keys() ?? [])];
let cycleCount = 0;
for (const { knot, cycles } of cyclesOf([...graph.keys()].sort(), fileNext)) {
  cycleCount += cycles.length;
  const routes = knot.filter(isRoute).map(rel);
  const chains = cycles.map((cycle) => {
    const steps = cycle.map((file, i) => {
      const to = cycle[(i + 1) % cycle.length];
      return `${rel(file)}${isRoute(file) ? ' [route]' : ''} → ${rel(to)}${note(graph.get(file).get(to))}`;
    });
    return `      ${steps.join('\n        ')}`;
  });
  problems.cycle.push(
    `${knot.length} files import each other in a cycle${routes.length > 0 ? `, routes among them (${routes.join(', ')})` : ''}:\n` +
      `      ${knot.map(rel).join(', ')}\n    the shortest cycle through each of them:\n${chains.join('\n    and\n')}`,
  );
}

// The area graph: which area imports which, with one file that does so, routes and tests left out.
const areaEdges = new Map();
for (const [file, edges] of graph) {
  if (!file.startsWith(SRC + path.sep) || isRoute(file) || isTest(file)) continue;
  const from = areaOf(file);
  for (const [target, kind] of edges) {
    const to = areaOf(target);
    if (!target.startsWith(SRC + path.sep) || to === from) continue;
    if (!areaEdges.has(from)) areaEdges.set(from, new Map());
    const known = areaEdges.get(from);
    if (!known.has(to) || (known.get(to).kind !== 'value' && kind === 'value'))
      known.set(to, { file, target, kind });
  }
}
const areaNext = (area) => [...(areaEdges.get(area)?.keys() ?? [])];
for (const { knot, cycles } of cyclesOf([...areaEdges.keys()].sort(), areaNext)) {
  const chains = cycles.map((cycle) =>
    cycle
      .map((area, i) => {
        const to = cycle[(i + 1) % cycle.length];
        const { file, target, kind } = areaEdges.get(area).get(to);
        return `${area} → ${to} (${rel(file)} imports ${rel(target)}${note(kind)})`;
      })
      .join('\n        '),
  );
  problems.areaCycle.push(
    `areas ${knot.join(', ')} import each other in a cycle:\n        ${chains.join('\n      and\n        ')}`,
  );
}

const kinds = [
  ['cycle', 'knots of files in import cycles', `(${cycleCount} cycles shown)`],
  ['areaCycle', 'knots of areas in import cycles', ''],
  ['ground', 'imports from the ground floor upwards', ''],
  ['store', "imports of another folder's store", ''],
  ['folder', 'folders with too many files', ''],
  ['length', 'files too long', ''],
  ['unresolved', 'relative imports of no file', ''],
];
// The debt this check still carries (scripts/boundaries-debt.txt): imports of another folder's store
// and the knot of areas tied together through the AppContext type, both printed every run. A problem
// not in the list fails the check, and so does a line of the list that no longer happens: the list
// only shrinks.
const DEBT_FILE = path.join(ROOT, 'scripts/boundaries-debt.txt');
const debt = readFileSync(DEBT_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));
const debtAreas = new Set(
  debt.filter((l) => l.startsWith('areas: ')).flatMap((l) => l.slice('areas: '.length).split(' ')),
);
const debtStores = new Set(debt.filter((l) => l.startsWith('store: ')).map((l) => l.slice('store: '.length)));
const knotAreas = (problem) =>
  problem.slice('areas '.length, problem.indexOf(' import each other')).split(', ');
const owed = {
  store: (problem) => debtStores.has(problem),
  areaCycle: (problem) => knotAreas(problem).every((a) => debtAreas.has(a)),
};
const paid = [
  ...[...debtStores].filter((line) => !problems.store.includes(line)).map((line) => `store: ${line}`),
  ...[...debtAreas]
    .filter((area) => !problems.areaCycle.some((p) => knotAreas(p).includes(area)))
    .map((area) => `areas: … ${area} …`),
];

let total = 0;
let owedCount = 0;
for (const [kind, title] of kinds) {
  if (problems[kind].length === 0) continue;
  const known = problems[kind].filter((p) => owed[kind]?.(p));
  owedCount += known.length;
  total += problems[kind].length - known.length;
  const mark = (p) => (known.includes(p) ? `(known debt) ${p}` : p);
  console.log(`\n${title} (${problems[kind].length}):\n  - ${problems[kind].map(mark).join('\n  - ')}`);
}
if (paid.length > 0) {
  console.log(
    `\nno longer happening, to take out of scripts/boundaries-debt.txt (${paid.length}):\n  - ${paid.join('\n  - ')}`,
  );
}
const counts = kinds.map(
  ([kind, title, extra]) => `${problems[kind].length} ${title}${extra ? ` ${extra}` : ''}`,
);
const summary = `${total} new problem(s), ${owedCount} known debt: ${counts.join(', ')}`;
if (total > 0 || paid.length > 0) {
  console.log(`\ncheck-boundaries: ${summary}`);
  process.exit(1);
}
console.log(
  owedCount > 0
    ? `\ncheck-boundaries: ${graph.size} files, ${importCount} imports, ${areaEdges.size} areas: ${summary}`
    : `check-boundaries: ${graph.size} files, ${importCount} imports, ${areaEdges.size} areas: no cycles, the ground floor imports nothing above it, every store is used from its own folder, no folder or file too large`,
);
