import { initializeAuth, inMemoryPersistence, type Auth } from '@firebase/auth';
import type { FirebaseApp } from '@firebase/app';

/**
 * The official Firebase Auth SDK pointed at a test server's `/identity` (plain HTTP on loopback),
 * as a deployment points it at Inkwell: the SDK has no setting for a self-hosted Identity
 * Toolkit, so its hosts are set on its config, as the emulator connection does.
 */
export function authAgainst(firebaseApp: FirebaseApp, serverUrl: string): Auth {
  const auth = initializeAuth(firebaseApp, { persistence: inMemoryPersistence });
  const host = new URL(serverUrl).host;
  const config = auth.config as unknown as { apiHost: string; tokenApiHost: string; apiScheme: string };
  config.apiHost = `${host}/identity`;
  config.tokenApiHost = `${host}/identity`;
  config.apiScheme = 'http';
  return auth;
}
