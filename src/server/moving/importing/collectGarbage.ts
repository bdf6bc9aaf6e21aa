import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A full garbage collection, now. V8 lets garbage pile up while the heap is far below its
 * limit: converting 10,000 posts left some 250 MB of dead DOM and strings in a heap whose
 * live part stays near 100 MB, and the process's RSS grew with it (decision 0721). An import
 * calls this between batches, so its memory follows what it holds, not what it made.
 * `--expose-gc` set at run time gives a fresh context its `gc` function.
 */
let gc: (() => void) | undefined;
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
