import { readdirSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

/**
 * The static imports between the TypeScript files under a folder, and the cycles among them that
 * are not type-only (issue 45 §3, T396). `import type` and `export type` are erased at compile time
 * and are skipped; every other static `import … from`, `export … from` and bare `import "…"` is an
 * edge, even `import { type A }` (kept as `import {}` under verbatimModuleSyntax, so the module is
 * still evaluated). Dynamic `import()` is skipped: it is evaluated later, never while the importing
 * module loads. Only relative specifiers name files under the folder; packages are not followed.
 */

/** Static import statements and re-exports, `type` marking the erased ones (Biome's formatting: one statement per line start). */
const STATEMENT = /^(?:import|export)\s+(type\s+)?(?:[^;"'`]*?\s+from\s+)?["']([^"']+)["']/gms;

/** Every `.ts`/`.tsx` file under `root` (test files included: they are modules too), as absolute paths. */
function sourceFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => resolve(e.parentPath, e.name));
}

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx` in the sources), or null. */
function resolveSpecifier(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(?:js|jsx|ts|tsx)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`]) if (files.has(candidate)) return candidate;
  return null;
}

/**
 * The runtime import graph of the files under `root`: each file (relative to `root`) to the files it
 * imports for their values, in source order.
 */
export function importGraph(root: string): Map<string, string[]> {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const edges: string[] = [];
    for (const m of readFileSync(file, "utf8").matchAll(STATEMENT)) {
      if (m[1]) continue;
      const target = resolveSpecifier(file, m[2]!, known);
      if (target && !edges.includes(relative(root, target))) edges.push(relative(root, target));
    }
    graph.set(relative(root, file), edges);
  }
  return graph;
}

/**
 * The import cycles of `graph`: one per strongly connected component of more than one file (or a
 * file importing itself), each as the path `a → b → … → a` found inside it, files sorted so the
 * answer is stable. An empty list means no file is evaluated while one of its imports is half-loaded.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  return components(graph)
    .filter((c) => c.length > 1 || (graph.get(c[0]!) ?? []).includes(c[0]!))
    .map((c) => cycleWithin(graph, new Set(c)))
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Tarjan's strongly connected components, iterative (no recursion depth limit on a long chain). */
function components(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [node, i] = frame;
      if (i === 0 && !index.has(node)) {
        index.set(node, next);
        low.set(node, next++);
        stack.push(node);
        onStack.add(node);
      }
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        frame[1] = i + 1;
        const target = edges[i]!;
        if (!index.has(target)) work.push([target, 0]);
        else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        result.push(component.sort());
      }
    }
  }
  return result;
}

/** A shortest cycle through the first file of a component, by breadth-first search inside it. */
function cycleWithin(graph: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>): string[] {
  const start = [...members].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** The cycles of `root`'s import graph as lines `a → b → a`, for a test's failure message. */
export function describeCycles(root: string): string[] {
  return importCycles(importGraph(root)).map((c) => c.join(" → "));
}
