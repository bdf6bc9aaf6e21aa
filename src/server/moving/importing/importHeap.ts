/**
 * The V8 heap an import runs in (decision 0724). Left to itself V8 sizes its heap by the
 * machine's memory and lets the conversion's garbage (each post's DOM and strings) pile up far
 * below that: on a 24 GB machine the same import peaked at 420 MB for 2,000 posts, 488 MB for
 * 10,000 and 545 MB for 20,000. What an import holds is one batch of posts, the plan (a few
 * hundred bytes a post) and the features: under 100 MB. A limit makes the heap follow that.
 */
// A young generation of 3 x 32 MB lets each post's garbage die there, so little reaches the old one.
export const IMPORT_HEAP_FLAGS = ['--max-old-space-size=160', '--max-semi-space-size=32'];

const IMPORTS = new Set(['import-ghost', 'import-wordpress']);

/**
 * The flags to start the admin command again with for these arguments, or null: an import
 * not yet under a heap limit (none set on the command line or in NODE_OPTIONS by the operator).
 */
export function importHeapFlags(argv: string[], execArgv: string[], nodeOptions: string | undefined): string[] | null {
  if (!argv.some((arg) => IMPORTS.has(arg))) return null;
  const set = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((flag) =>
    flag.startsWith('--max-old-space-size'),
  );
  return set ? null : IMPORT_HEAP_FLAGS;
}
