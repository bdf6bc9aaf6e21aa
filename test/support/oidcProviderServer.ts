/**
 * The test OpenID provider as a process, for browser tests: Playwright starts it as a webServer
 * on a fixed loopback port, and the app is configured with it as `oidc.test` (and `oidc.other`).
 *
 *   node test/support/oidcProviderServer.ts --port 3902 --redirect-uri http://127.0.0.1:3900/identity/oauth/oidc.test/callback
 *
 * Anyone may sign in there with any login and password (its development login page); the login
 * is the `sub`, and the address `<login>@provider.test`, verified. GET /healthz answers 200 once up.
 */
import { parseArgs } from 'node:util';
import { startTestOidcProvider } from './testOidcProvider.ts';

const { values } = parseArgs({
  options: { port: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true } },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`--port must be a port number, got ${values.port}`);
  process.exit(2);
}
const provider = await startTestOidcProvider({ port, redirectUris: values['redirect-uri'] ?? [] });
console.log(`test OpenID provider at ${provider.issuer}`);

const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
