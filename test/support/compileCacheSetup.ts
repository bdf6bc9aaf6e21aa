import { useCompileCache } from './compileCache.ts';

/**
 * `npm test`'s Vitest global setup beside globalSetup.ts: the processes it starts share Node's
 * compile cache (decision 0896). The reliability suite does not use it: its timings (a health
 * check answered within 100 ms under load) are judged as they always were.
 */
export default function setup() {
  useCompileCache();
}
