import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, identityCall, signUp } from '../../../test/support/articlesTestClient.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { identityClient } from '../../../test/support/identityTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { dialectCases } from '../../../test/support/testDatabases.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

async function scrape(server: TestApp, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The value of one sample line, e.g. sample(text, 'inkwell_emails_total{result="sent"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met within 10 s');
}

describe.each(dialectCases())('/metrics on $dialect', (dialectCase) => {
  let server: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('serves Prometheus text without METRICS_TOKEN: requests by route pattern and status class', async () => {
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
        'inkwell_http_request_duration_seconds_bucket{method="GET",route="/api/articles/:id",status="4xx",le="+Inf"}',
      ),
    ).toBe(1);
    // Never the raw URL: one series per route, not per article.
    expect(text).not.toContain(unknownId);
  });

  it('counts sign-in successes and failures, and emails sent', async () => {
    const user = await signUp(server.url, 'Metered');
    const identity = identityClient(server.url);
    expect((await identity.signIn(user.email, user.password)).status).toBe(200);
    expect((await identity.signIn(user.email, 'wrong-password')).status).toBe(400);
    const before = sink.messages.length;
    await identityCall(server.url, 'accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email: user.email });
    await sink.waitForMail(user.email, { after: before });

    let text = '';
    await eventually(async () => {
      text = (await scrape(server)).text;
      return sample(text, 'inkwell_emails_total{result="sent"}') === 1;
    });
    expect(sample(text, 'inkwell_sign_ins_total{result="success",code=""}')).toBe(1);
    expect(sample(text, 'inkwell_sign_ins_total{result="failure",code="INVALID_LOGIN_CREDENTIALS"}')).toBe(1);
    expect(
      sample(
        text,
        'inkwell_http_requests_total{method="POST",route="/identity/v1/accounts:signInWithPassword",status="2xx"}',
      ),
    ).toBe(1);
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

describe.each(dialectCases().filter((c) => c.dialect === 'sqlite'))('/metrics with METRICS_TOKEN', (dialectCase) => {
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
    expect((await scrape(server, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('counts emails the mail server refused', async () => {
    const user = await signUp(server.url, 'Unlucky');
    await identityCall(server.url, 'accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email: user.email });
    await eventually(async () => {
      const { text } = await scrape(server, { authorization: `Bearer ${TOKEN}` });
      return sample(text, 'inkwell_emails_total{result="failed"}') === 1;
    });
  });

  it('refuses a short METRICS_TOKEN at start-up without echoing it', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(
      /^Invalid configuration: METRICS_TOKEN must be 16-512 printable characters without spaces$/,
    );
  });
});
