import path from 'node:path';

/**
 * Puts every module the app's entry (src/web/main.tsx) reaches through static imports, the code
 * the home page loads whatever happens, in one chunk. Left to itself the bundler cuts that code
 * into a file per set of lazy screens sharing a module, and each file costs the home page's
 * JavaScript budget more bytes (decision 0181). Lazily loaded screens import from this chunk;
 * what only they use stays in their own chunks.
 */
interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

const HOME_CHUNK = 'home';
const ENTRY = path.resolve(import.meta.dirname, '../src/web/main.tsx');

// One set per chunking pass (the graph object is new for every build).
const reachableByGraph = new WeakMap<ModuleGraph, Set<string>>();

function staticallyReachable(graph: ModuleGraph): Set<string> {
  const seen = new Set<string>();
  const stack = [ENTRY];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** codeSplitting group name: 'home' for the home page's static graph, otherwise left to the bundler. */
export function homeChunkName(id: string, graph: ModuleGraph): string | null {
  let reachable = reachableByGraph.get(graph);
  if (!reachable) {
    reachable = staticallyReachable(graph);
    reachableByGraph.set(graph, reachable);
  }
  return id !== ENTRY && reachable.has(id) ? HOME_CHUNK : null;
}
