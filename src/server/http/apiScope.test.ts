import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

/**
 * Issue 41, point 1: every `/api` route is in one scope, so what the API promises holds for a
 * route whoever owns it: a body that is not JSON is 415 (not text handed to a handler), and an
 * unknown path under a route is a problem+json 404 (not the web app's shell). The routes come
 * from Fastify's own route table, so a feature added later is held to it without this file
 * changing. An HTTP contract: SQLite only.
 */

interface Route {
  method: string;
  url: string;
}

/** The `/api` routes as Fastify prints them (commonPrefix: false), without the scope's own catch-alls. */
function apiRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    stack.length = match[1]!.length / 4;
    stack.push(match[2]!);
    const url = stack.join('').replace(/^\/+/, '/');
    if (!url.startsWith('/api/') || url === '/api/' || url === '/api/*') continue;
    for (const method of match[3]!.split(', ')) {
      if (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) routes.push({ method, url });
    }
  }
  return routes;
}

const fill = (url: string) => url.replace(/:[A-Za-z]+/g, 'AAAAAAAAAAAAAAAAAAAA');

describe.each(contractDatabases())('the /api scope on $dialect', (dialectCase) => {
  let server: TestApp;
  let user: TestUser;
  let routes: Route[];

  beforeAll(async () => {
    server = await startTestApp(dialectCase);
    user = await signUp(server.url, 'Scope Walker');
    routes = apiRoutes(server.app);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds the routes of every feature that has an API', () => {
    const prefixes = new Set(routes.map((route) => route.url.split('/')[2]));
    for (const feature of [
      'articles',
      'authors',
      'images',
      'invitations',
      'members',
      'audit',
      'reports',
      'comments',
      'subscribers',
      'newsletters',
      'tags',
      'search',
    ]) {
      expect(prefixes, feature).toContain(feature);
    }
  });

  it('answers a text/plain body 415 on every route that takes one, anonymous or signed in', async () => {
    const writes = routes.filter((route) => route.method !== 'GET');
    expect(writes.length).toBeGreaterThan(15);
    for (const route of writes) {
      for (const authorization of [undefined, `Bearer ${user.idToken}`]) {
        // The image upload checks its caller before it reads a byte (a 401 first, anonymous).
        if (authorization === undefined && route.url === '/api/images') continue;
        const response = await fetch(`${server.url}${fill(route.url)}`, {
          method: route.method,
          headers: { 'content-type': 'text/plain', ...(authorization ? { authorization } : {}) },
          body: '{"reason":"looks like JSON, says it is text"}',
        });
        expect(response.status, `${route.method} ${route.url}`).toBe(415);
        expect(response.headers.get('content-type'), `${route.method} ${route.url}`).toMatch(
          /^application\/problem\+json/,
        );
      }
    }
  });

  it('answers an unknown path under every route with a problem+json 404, never the web app', async () => {
    for (const route of routes) {
      // Two segments more: one could be a parameter of a longer route (/api/articles/:id).
      const path = `${fill(route.url)}/no-such/endpoint`;
      const response = await fetch(`${server.url}${path}`, {
        method: route.method,
        headers: { authorization: `Bearer ${user.idToken}` },
      });
      expect(response.status, `${route.method} ${path}`).toBe(404);
      expect(response.headers.get('content-type'), `${route.method} ${path}`).toMatch(/^application\/problem\+json/);
      expect(((await response.json()) as { detail: string }).detail).toBe(
        `There is no API endpoint ${route.method} ${path}.`,
      );
    }
  });

  it('answers a route’s errors as problem+json: a body that is not JSON is a 400 saying so', async () => {
    const response = await fetch(`${server.url}/api/comments/AAAAAAAAAAAAAAAAAAAA/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}` },
      body: '{"reason":',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await response.json()) as { detail: string }).detail).toBe('The request body is not valid JSON.');
  });
});
