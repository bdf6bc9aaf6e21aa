import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, identityCall, signUp } from '../../../test/support/articlesTestClient.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { identityClient } from '../../../test/support/identityTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases, storageDatabases } from '../../../test/support/testDatabases.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

const BEARER = { authorization: `Bearer ${TOKEN}` };

async function scrape(server: TestApp, headers: Record<string, string> = BEARER) {
  const response = await fetch(`${server.url}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The value of one sample line, e.g. sample(text, 'inkwell_sign_ins_total{result="success",code=""}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every sample line as series -> value. */
function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    map.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return map;
}

/** The counters that moved between two scrapes, with how much (gauges, timings and scrapes left out). */
function counted(before: string, after: string): Record<string, number> {
  const old = samples(before);
  const moved: Record<string, number> = {};
  for (const [series, value] of samples(after)) {
    const timing = /_bucket\{|_sum\{/.test(series);
    const gauge = /^inkwell_(process_resident_memory_bytes|sqlite_file_bytes|db_pool_connections)/.test(series);
    if (timing || gauge || series.includes('route="/metrics"')) continue;
    const delta = value - (old.get(series) ?? 0);
    if (delta !== 0) moved[series] = delta;
  }
  return moved;
}

async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met within 10 s');
}

describe.each(storageDatabases())('/metrics on $dialect', (dialectCase) => {
  let server: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url, METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('serves Prometheus text to the token holder: requests by route pattern and status class', async () => {
    const unknownId = 'abcdefghij0123456789';
    expect((await articlesApi(server.url).get(unknownId)).status).toBe(404);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const { status, type, text } = await scrape(server);
    expect(status).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toContain('# TYPE inkwell_http_requests_total counter');
    expect(sample(text, 'inkwell_http_requests_total{method="GET",route="/api/articles/:id",status="4xx"}')).toBe(1);
    expect(sample(text, 'inkwell_http_requests_total{method="GET",route="/healthz",status="2xx"}')).toBe(1);
    expect(text).toContain('# TYPE inkwell_http_request_duration_seconds histogram');
    expect(
      sample(text, 'inkwell_http_request_duration_seconds_count{method="GET",route="/api/articles/:id",status="4xx"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        // prom-client writes `le` first; label order carries no meaning in the format.
        'inkwell_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/articles/:id",status="4xx"}',
      ),
    ).toBe(1);
    // Never the raw URL: one series per route, not per article.
    expect(text).not.toContain(unknownId);
  });

  it('counts sign-in successes and failures', async () => {
    const user = await signUp(server.url, 'Metered');
    const identity = identityClient(server.url);
    expect((await identity.signIn(user.email, user.password)).status).toBe(200);
    expect((await identity.signIn(user.email, 'wrong-password')).status).toBe(400);

    const { text } = await scrape(server);
    expect(sample(text, 'inkwell_sign_ins_total{result="success",code=""}')).toBe(1);
    expect(sample(text, 'inkwell_sign_ins_total{result="failure",code="INVALID_LOGIN_CREDENTIALS"}')).toBe(1);
    expect(
      sample(
        text,
        'inkwell_http_requests_total{method="POST",route="/identity/v1/accounts:signInWithPassword",status="2xx"}',
      ),
    ).toBe(1);
  });

  it('tells nobody whether a password reset was for a known email (the same counters move)', async () => {
    const user = await signUp(server.url, 'Forgetful');
    const reset = (email: string) =>
      identityCall(server.url, 'accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
    const start = (await scrape(server)).text;
    const before = sink.messages.length;
    expect((await reset(user.email)).status).toBe(200);
    await sink.waitForMail(user.email, { after: before, subject: /Reset your/ });
    const afterKnown = (await scrape(server)).text;
    expect((await reset(`nobody-${Date.now()}@example.com`)).status).toBe(200);
    const afterUnknown = (await scrape(server)).text;
    expect(counted(start, afterKnown)).toEqual(counted(afterKnown, afterUnknown));
  });

  it('reports what the database has to say about its connections', async () => {
    const { text } = await scrape(server);
    if (dialectCase.dialect === 'postgres') {
      expect(sample(text, 'inkwell_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'inkwell_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'inkwell_db_pool_connections{state="waiting"}')).toBe(0);
    } else {
      expect(sample(text, 'inkwell_sqlite_file_bytes{file="database"}')).toBeGreaterThan(0);
      expect(text).not.toContain('inkwell_db_pool_connections');
    }
  });
});

describe.each(contractDatabases())('/metrics without METRICS_TOKEN', (dialectCase) => {
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp(dialectCase);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 404 like any unknown path: metrics are never public by default', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    for (const headers of [{}, BEARER]) {
      const answer = await scrape(server, headers);
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain('inkwell_');
    }
  });
});

describe.each(contractDatabases())('/metrics with METRICS_TOKEN', (dialectCase) => {
  let server: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink({ mode: 'reject' });
    server = await startTestApp(dialectCase, { METRICS_TOKEN: TOKEN, SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('answers 401 without the bearer token, or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const answer = await scrape(server, headers);
      expect(answer.status).toBe(401);
      expect(answer.text).not.toContain('inkwell_');
    }
    expect((await scrape(server)).status).toBe(200);
  });

  it('counts emails the mail server refused', async () => {
    const user = await signUp(server.url, 'Unlucky');
    const failures = async () => sample((await scrape(server)).text, 'inkwell_email_failures_total');
    // The sign-up's verification link is refused too.
    await eventually(async () => (await failures()) === 1);
    await identityCall(server.url, 'accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email: user.email });
    await eventually(async () => (await failures()) === 2);
  });

  it('refuses a short METRICS_TOKEN at start-up without echoing it', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(
      /^Invalid configuration: METRICS_TOKEN must be 16-512 printable characters without spaces$/,
    );
  });
});
