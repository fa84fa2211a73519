// One file writes each table (see "Who owns which tables" in the README): run by
// `npm run check:tables`. It reads the SQL of every source file of src/ but the tests and the
// migrations (src/db/migrations/, plain .sql), finds the statements that write a table — INSERT INTO
// (upserts included), UPDATE … SET, DELETE FROM, TRUNCATE, COPY … FROM, MERGE INTO — and prints the
// owner file of each table. It fails (exit 1) when a table is written from more than one file,
// printing the table and its writers, or when a statement writes a table whose name it cannot tell.
// Advisory locks have one owner too: their ids are one list (src/db/advisory-locks.ts), and a
// `pg_advisory…` call anywhere else fails the check.
//
// The SQL is read from the string literals of the code, so a keyword in a comment or an identifier
// counts for nothing. Pieces are put together where the code builds a statement in one expression:
// a template's `${…}` is followed to the literals it can be (a const, a destructured property of a
// const object, a parameter typed as a union of literals), and `'a' + b` and `[…].join()` are read
// as one text. Keywords are matched in capitals, as the code writes its SQL.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SRC = path.join(ROOT, 'src');
const MIGRATIONS = path.join(SRC, 'db', 'migrations');
const ADVISORY_LOCKS = path.join(SRC, 'db', 'advisory-locks.ts');

const NAME = String.raw`(?:"?\w+"?\.)?"?\w+"?|\$\{[^}]+\}`;
const WRITES = [
  ['INSERT', new RegExp(String.raw`\bINSERT\s+INTO\s+(${NAME})`, 'g')],
  [
    'UPDATE',
    new RegExp(
      String.raw`(?<!\bDO\s+|\bFOR\s+|\bNO\s+KEY\s+)\bUPDATE\s+(?:ONLY\s+)?(${NAME})(?:\s+(?:AS\s+)?\w+)?\s+SET\b`,
      'g',
    ),
  ],
  ['DELETE', new RegExp(String.raw`\bDELETE\s+FROM\s+(?:ONLY\s+)?(${NAME})`, 'g')],
  [
    'TRUNCATE',
    new RegExp(String.raw`\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?((?:${NAME})(?:\s*,\s*(?:${NAME}))*)`, 'g'),
  ],
  ['COPY', new RegExp(String.raw`\bCOPY\s+(${NAME})\s*(?:\([^)]*\))?\s+FROM\b`, 'g')],
  ['MERGE', new RegExp(String.raw`\bMERGE\s+INTO\s+(?:ONLY\s+)?(${NAME})`, 'g')],
];

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (full === MIGRATIONS) return [];
    if (statSync(full).isDirectory()) return filesUnder(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

/** The texts the file's code can hand to the database: literals, templates and concatenations. */
function sqlTexts(source) {
  const texts = [];
  const pieces = (node) => {
    if (ts.isStringLiteralLike(node)) return [{ text: node.text }];
    if (ts.isTemplateExpression(node)) {
      return [
        { text: node.head.text },
        ...node.templateSpans.flatMap((span) => [{ hole: span.expression }, { text: span.literal.text }]),
      ];
    }
    if (ts.isParenthesizedExpression(node)) return pieces(node.expression);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      return [...pieces(node.left), ...pieces(node.right)];
    }
    if (isArrayJoin(node)) {
      const separator =
        node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]) ? node.arguments[0].text : ',';
      return node.expression.expression.elements.flatMap((e, i) => [
        ...(i > 0 ? [{ text: separator }] : []),
        ...pieces(e),
      ]);
    }
    return [{ hole: node }];
  };
  const visit = (node) => {
    const whole =
      ts.isStringLiteralLike(node) ||
      ts.isTemplateExpression(node) ||
      isArrayJoin(node) ||
      (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken);
    if (!whole) {
      ts.forEachChild(node, visit);
      return;
    }
    const parts = pieces(node);
    if (parts.some((p) => p.text !== undefined && /[A-Z]{4}/.test(p.text))) texts.push({ node, parts });
    // A hole may hold a statement of its own (a nested template, a call building one).
    for (const { hole } of parts) if (hole) visit(hole);
  };
  visit(source);
  return texts;
}

function isArrayJoin(node) {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'join' &&
    ts.isArrayLiteralExpression(node.expression.expression)
  );
}

/** Every string a hole of a template can be, read from the declarations of its file; none when unknown. */
function literalsOf(expression, source, depth = 0) {
  if (depth > 4) return [];
  if (ts.isStringLiteralLike(expression)) return [expression.text];
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression)) {
    return literalsOf(expression.expression, source, depth + 1);
  }
  if (ts.isConditionalExpression(expression)) {
    return [
      ...literalsOf(expression.whenTrue, source, depth + 1),
      ...literalsOf(expression.whenFalse, source, depth + 1),
    ];
  }
  const name = ts.isIdentifier(expression)
    ? expression.text
    : ts.isPropertyAccessExpression(expression)
      ? expression.name.text
      : undefined;
  if (!name) return [];
  const found = [];
  const visit = (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === name &&
      node.initializer
    ) {
      found.push(...literalsOf(node.initializer, source, depth + 1));
    } else if (ts.isBindingElement(node) && ts.isIdentifier(node.name) && node.name.text === name) {
      // `const { table } = TABLES[kind]`: the `table` properties of the object it is taken from.
      const property =
        node.propertyName && ts.isIdentifier(node.propertyName) ? node.propertyName.text : name;
      const from = node.parent.parent.initializer;
      let base = from;
      while (base && (ts.isElementAccessExpression(base) || ts.isPropertyAccessExpression(base)))
        base = base.expression;
      if (base) found.push(...propertyLiterals(base, property, source));
    } else if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.name.text === name && node.type) {
      found.push(...typeLiterals(node.type));
    } else if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === name) {
      if (ts.isPropertyAccessExpression(expression))
        found.push(...literalsOf(node.initializer, source, depth + 1));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(found)];
}

function propertyLiterals(base, property, source) {
  if (!ts.isIdentifier(base)) return [];
  const found = [];
  const visit = (node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === base.text &&
      node.initializer
    ) {
      const inner = (n) => {
        if (ts.isPropertyAssignment(n) && n.name.getText(source) === property) {
          found.push(...literalsOf(n.initializer, source, 1));
        }
        ts.forEachChild(n, inner);
      };
      inner(node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function typeLiterals(type) {
  if (ts.isUnionTypeNode(type)) return type.types.flatMap(typeLiterals);
  if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) return [type.literal.text];
  return [];
}

const writers = new Map(); // table → Map(file → [lines])
const unknown = [];
const strayLocks = [];
const rel = (file) => path.relative(ROOT, file);

for (const file of filesUnder(SRC)) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const { node, parts } of sqlTexts(source)) {
    const holes = [];
    const text = parts
      .map((p) => {
        if (p.text !== undefined) return p.text;
        holes.push(p.hole);
        return `\${${holes.length - 1}}`;
      })
      .join('');
    if (/\bpg_(try_)?advisory/.test(text) && file !== ADVISORY_LOCKS) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      strayLocks.push(`${rel(file)}:${line} takes an advisory lock outside ${rel(ADVISORY_LOCKS)}`);
    }
    for (const [verb, pattern] of WRITES) {
      for (const match of text.matchAll(pattern)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        for (const name of match[1].split(/\s*,\s*/)) {
          const hole = /^\$\{(\d+)\}$/.exec(name);
          const tables = hole
            ? literalsOf(holes[Number(hole[1])], source)
            : [name.replace(/"/g, '').replace(/^public\./, '')];
          if (tables.length === 0) {
            unknown.push(`${rel(file)}:${line}: ${verb} into \${${holes[Number(hole[1])].getText(source)}}`);
          }
          for (const table of tables) {
            if (!writers.has(table)) writers.set(table, new Map());
            const byFile = writers.get(table);
            if (!byFile.has(file)) byFile.set(file, new Set());
            byFile.get(file).add(line);
          }
        }
      }
    }
  }
}

const tables = [...writers.keys()].sort();
const shared = tables.filter((t) => writers.get(t).size > 1);
const width = Math.max(...tables.map((t) => t.length));
console.log('table owners (the one file that writes each table):');
for (const table of tables) {
  const files = [...writers.get(table).keys()].map(rel).sort();
  console.log(
    `  ${table.padEnd(width)}  ${files.join(', ')}${files.length > 1 ? '   <- more than one writer' : ''}`,
  );
}
const problems = [
  ...shared.map((table) => {
    const lines = [...writers.get(table)]
      .map(([file, at]) => `${rel(file)} (line ${[...at].join(', ')})`)
      .sort();
    return `${table} is written from ${lines.length} files:\n      ${lines.join('\n      ')}`;
  }),
  ...unknown.map((u) => `a write whose table cannot be told: ${u}`),
  ...strayLocks,
];
if (problems.length > 0) {
  console.log(`\nproblems:\n  - ${problems.join('\n  - ')}`);
  console.log(
    `\ncheck-table-owners: ${problems.length} problem(s): ${shared.length} tables written from more than one file, ${unknown.length} writes to a table it cannot tell, ${strayLocks.length} advisory locks outside the list; ${tables.length} tables written`,
  );
  process.exit(1);
}
console.log(`\ncheck-table-owners: ${tables.length} tables, each written from one file`);
