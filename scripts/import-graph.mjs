// `node scripts/import-graph.mjs [server|web…]`: the import graph of each app's folders.
//
// A folder is a layer: `src/a/b/…` counts as `a/b` (`modules/auth`, `plugins/external`), `src/a/x.ts` as `a`,
// a file directly in `src/` as itself. A layer sits above everything it imports, so the best order of the
// layers is the one with the fewest imports against it; those imports run *back up*, from a lower folder to
// a higher one, and are listed (type imports count: they tie the layers as much). Cycles are of files, over
// runtime imports only (static and `import()`, not `import type`). Tests are not part of the graph.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root } from './lib.mjs';

const apps = { server: 'apps/server/src', web: 'apps/web/src' };
const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.test\.tsx?$|\.d\.ts$/;

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !TEST.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Relative imports of a file: `{ spec, runtime }`, `runtime` false for `import type`/`export type`. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      let runtime = true;
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        if (clause?.isTypeOnly) runtime = false;
        else if (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings)) {
          const elements = clause.namedBindings.elements;
          if (elements.length > 0 && elements.every((e) => e.isTypeOnly)) runtime = false;
        }
      } else if (node.isTypeOnly) runtime = false;
      found.push({ spec: node.moduleSpecifier.text, runtime });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ spec: node.arguments[0].text, runtime: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((i) => i.spec.startsWith('.'));
}

function resolve(from, spec, known) {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

function layerOf(rel) {
  const parts = rel.split('/');
  if (parts.length === 1) return parts[0].replace(SOURCE, '');
  if (parts.length === 2) return parts[0];
  return `${parts[0]}/${parts[1]}`;
}

/** Strongly connected components (Tarjan), each a list of nodes. */
function components(nodes, next) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const connect = (v) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
    }
    if (low.get(v) === order.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      out.push(component);
    }
  };
  for (const v of nodes) if (!order.has(v)) connect(v);
  return out;
}

/** Imports running up in `order` (bottom first). */
function upCost(order, weight) {
  let up = 0;
  for (let i = 0; i < order.length; i++) {
    for (let j = i + 1; j < order.length; j++) up += weight.get(`${order[i]}\0${order[j]}`) ?? 0;
  }
  return up;
}

/**
 * The order of a component's layers (bottom first) with the fewest imports running up: exact over subsets
 * up to 18 layers; above that, fewest imports against it first, then single moves while one helps.
 */
function bestOrder(layers, weight) {
  const n = layers.length;
  const w = (a, b) => weight.get(`${layers[a]}\0${layers[b]}`) ?? 0;
  if (n <= 18) {
    const size = 1 << n;
    const cost = new Float64Array(size).fill(Number.POSITIVE_INFINITY);
    const choice = new Int8Array(size);
    cost[0] = 0;
    for (let set = 0; set < size; set++) {
      if (cost[set] === Number.POSITIVE_INFINITY) continue;
      for (let v = 0; v < n; v++) {
        if (set & (1 << v)) continue;
        // v goes above everything in `set`: imports from those layers to v run back up
        let up = 0;
        for (let u = 0; u < n; u++) if (set & (1 << u)) up += w(u, v);
        const next = set | (1 << v);
        if (cost[set] + up < cost[next]) {
          cost[next] = cost[set] + up;
          choice[next] = v;
        }
      }
    }
    const order = [];
    for (let set = size - 1; set; set &= ~(1 << choice[set])) order.unshift(layers[choice[set]]);
    return order;
  }
  const left = new Set(layers.map((_, i) => i));
  let order = [];
  while (left.size) {
    let best = -1;
    let bestUp = Number.POSITIVE_INFINITY;
    for (const v of left) {
      let up = 0;
      for (const u of left) if (u !== v) up += w(v, u);
      if (up < bestUp) [best, bestUp] = [v, up];
    }
    left.delete(best);
    order.push(layers[best]);
  }
  let cost = upCost(order, weight);
  for (let improved = true; improved; ) {
    improved = false;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const moved = order.filter((_, k) => k !== i);
        moved.splice(j, 0, order[i]);
        const c = upCost(moved, weight);
        if (c < cost) [order, cost, improved] = [moved, c, true];
      }
    }
  }
  return order;
}

function measure(name, dir) {
  const abs = path.join(root, dir);
  const files = sources(abs);
  const known = new Set(files);
  const edges = [];
  for (const file of files) {
    for (const { spec, runtime } of importsOf(file)) {
      const target = resolve(file, spec, known);
      if (target && target !== file) edges.push({ from: file, to: target, runtime });
    }
  }
  const rel = (f) => path.relative(abs, f);
  const layer = (f) => layerOf(rel(f));

  // layers: the weight of a→b is the number of files of a that import b
  const weight = new Map();
  const seen = new Set();
  for (const e of edges) {
    const [a, b] = [layer(e.from), layer(e.to)];
    if (a === b || seen.has(`${e.from}\0${b}`)) continue;
    seen.add(`${e.from}\0${b}`);
    weight.set(`${a}\0${b}`, (weight.get(`${a}\0${b}`) ?? 0) + 1);
  }
  const layers = [...new Set(files.map(layer))].sort();
  const above = new Map();
  for (const [key] of weight) {
    const [a, b] = key.split('\0');
    if (!above.has(a)) above.set(a, new Set());
    above.get(a).add(b);
  }
  const rank = new Map();
  const tangles = components(layers, (v) => above.get(v) ?? []).filter((c) => c.length > 1);
  for (const tangle of tangles) {
    for (const [i, l] of bestOrder(tangle.sort(), weight).entries()) rank.set(l, i);
  }
  const sameTangle = new Map();
  tangles.forEach((t, i) => {
    for (const l of t) sameTangle.set(l, i);
  });
  const backUp = [];
  const counted = new Set();
  for (const e of edges) {
    const [a, b] = [layer(e.from), layer(e.to)];
    if (a === b || !sameTangle.has(a) || sameTangle.get(a) !== sameTangle.get(b)) continue;
    if (rank.get(a) < rank.get(b) && !counted.has(`${e.from}\0${b}`)) {
      counted.add(`${e.from}\0${b}`);
      backUp.push(`${rel(e.from)} → ${b} (${rel(e.to)}${e.runtime ? '' : ', type'})`);
    }
  }

  // runtime cycles of files
  const runtimeNext = new Map();
  for (const e of edges.filter((x) => x.runtime)) {
    if (!runtimeNext.has(e.from)) runtimeNext.set(e.from, []);
    runtimeNext.get(e.from).push(e.to);
  }
  const cycles = components(files, (v) => runtimeNext.get(v) ?? [])
    .filter((c) => c.length > 1)
    .map((c) => {
      // one loop through the component, starting at its first file in name order
      const inside = new Set(c);
      const start = c.sort()[0];
      const pathTo = new Map([[start, null]]);
      const queue = [start];
      let closing;
      while (queue.length && !closing) {
        const v = queue.shift();
        for (const w of runtimeNext.get(v) ?? []) {
          if (w === start) {
            closing = v;
            break;
          }
          if (inside.has(w) && !pathTo.has(w)) {
            pathTo.set(w, v);
            queue.push(w);
          }
        }
      }
      const loop = [];
      for (let v = closing; v; v = pathTo.get(v)) loop.unshift(rel(v).replace(SOURCE, ''));
      return `${loop.join(' → ')} → ${loop[0]} (${c.length} files)`;
    });

  return { name, files: files.length, layers: layers.length, imports: edges.length, tangles, backUp, cycles };
}

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const quiet = process.argv.includes('--summary');
const results = Object.entries(apps)
  .filter(([name]) => asked.length === 0 || asked.includes(name))
  .map(([name, dir]) => measure(name, dir));
for (const r of results) {
  console.log(`\n${r.name}: ${r.files} files in ${r.layers} folders, ${r.imports} imports`);
  for (const t of r.tangles) console.log(`  folders tied in a loop: ${t.join(', ')}`);
  console.log(`  imports back up: ${r.backUp.length}`);
  if (!quiet) for (const line of r.backUp) console.log(`    ${line}`);
  console.log(`  runtime import cycles: ${r.cycles.length}`);
  for (const line of r.cycles) console.log(`    ${line}`);
}
