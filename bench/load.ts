import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request's body (e.g. a fresh email per sign-up). */
  nextBody?: () => string;
  connections?: number;
  seconds?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses that were not 2xx, plus socket errors: a run with any is not a valid figure. */
  failures: number;
}

/** One bounded autocannon run against a loopback URL. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const host = new URL(spec.url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`The bench only targets loopback addresses, not ${host}`);
  }
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections ?? 10,
    duration: spec.seconds ?? 4,
    timeout: 10,
    ...(spec.nextBody
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: spec.nextBody!() }) }] }
      : {}),
  });
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result['2xx'],
    failures: result.non2xx + result.errors,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
