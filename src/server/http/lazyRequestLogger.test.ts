import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// A request's logger becomes pino's child on its first line (lazyRequestLogger.ts): what an
// operator reads must not change. Lines logged through the request carry its id, as the access
// line does; below LOG_LEVEL nothing is written.
interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
}

async function serverLogging(level: string): Promise<{ server: TestApp; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
  });
  const [sqlite] = contractDatabases();
  return { server: await startTestApp(sqlite!, { LOG_LEVEL: level }, { logStream }), lines };
}

describe("a request's log lines", () => {
  let debug: { server: TestApp; lines: LogLine[] };
  let info: { server: TestApp; lines: LogLine[] };

  beforeAll(async () => {
    [debug, info] = await Promise.all([serverLogging('debug'), serverLogging('info')]);
  });
  afterAll(async () => {
    await Promise.all([debug.server.close(), info.server.close()]);
  });

  const linesOf = async (logging: { server: TestApp; lines: LogLine[] }) => {
    const response = await logging.server.app.inject({ method: 'GET', url: '/api/articles?limit=2' });
    expect(response.statusCode).toBe(200);
    const id = response.headers['x-request-id'];
    expect(id).toBeTypeOf('string');
    // The batched destination writes on the next turns of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return logging.lines.filter((line) => line.reqId === id);
  };

  it('carry its id at debug: its arrival through the request logger, its completion', async () => {
    const lines = await linesOf(debug);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('are one access line at info, with nothing below the level', async () => {
    const lines = await linesOf(info);
    expect(lines.map((line) => line.msg)).toEqual(['request completed']);
  });
});
