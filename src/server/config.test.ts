import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('data'),
      database: { kind: 'sqlite', file: path.resolve('data/inkwell.db') },
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      mailFrom: 'Inkwell <no-reply@localhost>',
      projectId: 'inkwell',
      passwordMinLength: 6,
      recentSignInSeconds: 300,
      trustProxy: false,
    });
  });

  it('selects PostgreSQL for a postgres:// URL and SQLite for sqlite:PATH', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/inkwell' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/inkwell',
      poolMax: 10,
    });
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).database).toEqual({ kind: 'sqlite', file: '/tmp/x.db' });
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://blog.example.com/' }).publicUrl).toBe('https://blog.example.com');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', TRUST_PROXY: '' })).toMatchObject({ port: 3000, trustProxy: false });
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT must be a number \(got "abc"\)$/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT must be between 0 and 65535/],
    [{ TRUST_PROXY: 'maybe' }, /^Invalid configuration: TRUST_PROXY must be true or false/],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ URL or sqlite:PATH$/],
    [{ PUBLIC_URL: 'ftp://x' }, /^Invalid configuration: PUBLIC_URL must be an absolute http/],
    [{ SMTP_URL: 'not a url' }, /^Invalid configuration: SMTP_URL must be an smtp/],
    [{ PASSWORD_MIN_LENGTH: '0' }, /^Invalid configuration: PASSWORD_MIN_LENGTH must be between 1 and 4096/],
    [{ PROJECT_ID: 'Has Spaces' }, /^Invalid configuration: PROJECT_ID must be/],
  ])('rejects %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a URL value, which may hold a password', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp//user:secret@host' })).toThrow(/^(?!.*secret).*SMTP_URL/);
  });

  it('reads IMAGE_MAX_BYTES, 10 MiB by default, and refuses bad values', () => {
    expect(loadConfig({}).imageMaxBytes).toBe(10_485_760);
    expect(loadConfig({ IMAGE_MAX_BYTES: '2000000' }).imageMaxBytes).toBe(2_000_000);
    expect(() => loadConfig({ IMAGE_MAX_BYTES: '0' })).toThrow(/^Invalid configuration: IMAGE_MAX_BYTES/);
    expect(() => loadConfig({ IMAGE_MAX_BYTES: '10MB' })).toThrow(/IMAGE_MAX_BYTES must be a number/);
  });

  it('reads REQUIRE_TWO_STEP: none by default, editors, and a one-line error for anything else', () => {
    expect(loadConfig({}).requireTwoStep).toBe('none');
    expect(loadConfig({ REQUIRE_TWO_STEP: 'editors' }).requireTwoStep).toBe('editors');
    expect(() => loadConfig({ REQUIRE_TWO_STEP: 'owners' })).toThrow(
      /^Invalid configuration: REQUIRE_TWO_STEP must be one of none, editors \(got "owners"\)$/,
    );
  });

  it('reads the rate limits, with the documented defaults, and refuses bad ones', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      signInPerEmail: 10,
      signInPerIp: 100,
      signInPerAccount: 50,
      signInAttemptsPerIp: 300,
      emailChangePerUser: 10,
      passwordChangePerUser: 10,
      signUpPerIp: 100,
      resetEmailPerEmail: 5,
      resetEmailPerIp: 50,
      resetCodePerIp: 100,
      articleCreatePerUser: 60,
      imageUploadPerUser: 60,
      searchPerIp: 60,
      passkeySignInStartPerIp: 100,
      commentPerUser: 10,
    });
    expect(loadConfig({ RATE_LIMIT_COMMENT_PER_USER: '3' }).rateLimits.commentPerUser).toBe(3);
    expect(loadConfig({ RATE_LIMIT_SEARCH_PER_IP: '7' }).rateLimits.searchPerIp).toBe(7);
    expect(loadConfig({ RATE_LIMIT_PASSKEY_SIGNIN_START_PER_IP: '9' }).rateLimits.passkeySignInStartPerIp).toBe(9);
    expect(loadConfig({ RATE_LIMIT_SIGNIN_PER_EMAIL: '3' }).rateLimits.signInPerEmail).toBe(3);
    expect(loadConfig({ RATE_LIMIT_NEW_PASSWORD_PER_USER: '4' }).rateLimits.passwordChangePerUser).toBe(4);
    expect(() => loadConfig({ RATE_LIMIT_SIGNUP_PER_IP: '0' })).toThrow(
      /^Invalid configuration: RATE_LIMIT_SIGNUP_PER_IP/,
    );
    expect(() => loadConfig({ RATE_LIMIT_RESET_CODE_PER_IP: 'lots' })).toThrow(
      /RATE_LIMIT_RESET_CODE_PER_IP must be a number/,
    );
  });

  it('reads COMMENTS: on by default, approval or off, nothing else (DESIGN.md §9.2)', () => {
    expect(loadConfig({}).comments).toBe('on');
    expect(loadConfig({ COMMENTS: 'approval' }).comments).toBe('approval');
    expect(loadConfig({ COMMENTS: 'off' }).comments).toBe('off');
    expect(() => loadConfig({ COMMENTS: 'maybe' })).toThrow(
      'Invalid configuration: COMMENTS must be one of on, approval, off (got "maybe")',
    );
  });
});

describe('the site identity', () => {
  it('defaults to Inkwell and a neutral line, and names the mail sender after the site', () => {
    const config = loadConfig({});
    expect(config.site).toEqual({ title: 'Inkwell', description: 'Articles worth reading.', signup: 'open' });
    expect(config.mailFrom).toBe('Inkwell <no-reply@localhost>');
  });

  it('quotes a site title the sender header could not carry as it is, and lets MAIL_FROM win', () => {
    const config = loadConfig({ SITE_TITLE: '  Ada\'s "Notes", daily ', SITE_DESCRIPTION: 'Essays.' });
    expect(config.site).toEqual({ title: 'Ada\'s "Notes", daily', description: 'Essays.', signup: 'open' });
    expect(config.mailFrom).toBe('"Ada\'s \\"Notes\\", daily" <no-reply@localhost>');
    expect(loadConfig({ SITE_TITLE: 'Ada', MAIL_FROM: 'Blog <blog@example.org>' }).mailFrom).toBe(
      'Blog <blog@example.org>',
    );
  });

  it.each([
    [{ SITE_TITLE: '   ' }, /^Invalid configuration: SITE_TITLE must not be blank/],
    [{ SITE_TITLE: 'x'.repeat(101) }, /^Invalid configuration: SITE_TITLE must be at most 100 characters/],
    [{ SITE_DESCRIPTION: 'two\nlines' }, /^Invalid configuration: SITE_DESCRIPTION must be one line/],
    [{ READ_CACHE_MAX_BYTES: '0' }, /^Invalid configuration: READ_CACHE_MAX_BYTES must be between 1 and/],
  ])('rejects %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
