/**
 * What a browser does in the provider's redirect flow, done with fetch for API tests (the browser
 * tests use Chromium): a cookie jar per site, redirects followed by hand, and the test provider's
 * development login and consent forms submitted. Answers the last response that left the
 * provider: the redirect back to Inkwell's callback.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  store(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const separator = pair!.indexOf('=');
      const name = pair!.slice(0, separator).trim();
      const value = pair!.slice(separator + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(host, jar);
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  get(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).host)?.get(name);
  }
}

export async function request(
  jar: CookieJar,
  url: string,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<Response> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: {
      cookie: jar.header(url),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  });
  jar.store(url, response);
  return response;
}

/**
 * From the provider's authorization URL to the redirect back to the relying party: signs in at
 * the provider as `login` (any password) and consents. Answers the callback URL the provider
 * sent the browser to.
 */
export async function passProvider(jar: CookieJar, authorizationUrl: string, login: string): Promise<URL> {
  let url = authorizationUrl;
  for (let step = 0; step < 12; step += 1) {
    const response = await request(jar, url);
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location')!, url);
      if (next.origin !== new URL(authorizationUrl).origin) return next;
      url = next.href;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${response.status} ${html.slice(0, 200)}`);
    const inputs = Object.fromEntries(
      [...html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const form = html.includes('name="login"') ? { ...inputs, login, password: 'any' } : inputs;
    const submitted = await request(jar, new URL(action, url).href, { method: 'POST', form });
    url = new URL(submitted.headers.get('location')!, url).href;
  }
  throw new Error('the provider flow did not come back');
}
