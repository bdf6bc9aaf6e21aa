import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { storageDatabases } from '../../../../test/support/testDatabases.ts';
import { articlesTestApp } from '../../../../test/support/articlesTestClient.ts';

// Pieces of FTS5 and tsquery syntax, and characters that have broken query parsers before.
const SYNTAX = [
  '"',
  "'",
  '-',
  '*',
  '^',
  ':',
  '(',
  ')',
  '{',
  '}',
  '&',
  '|',
  '!',
  '<->',
  '<2>',
  ':*',
  ' AND ',
  ' OR ',
  ' NOT ',
  'NEAR(',
  'NEAR/3',
  '\\',
  '\u0000',
  '%',
  '_',
  '+',
  'title:',
  '{title body}:',
  '\u0301',
  '\uFFFD',
  '🙂',
  'ﬁ',
];

const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 220 }),
  fc
    .array(fc.oneof(fc.constantFrom(...SYNTAX), fc.string({ maxLength: 6 }), fc.constantFrom('harbour', 'café')), {
      maxLength: 30,
    })
    .map((parts) => parts.join('')),
);

describe.each(storageDatabases())('search under hostile query text on $dialect', (dialectCase) => {
  const app = articlesTestApp(dialectCase);

  beforeAll(async () => {
    await app.api.create(app.alice.idToken, {
      image: 'https://images.example.com/a.jpg',
      title: 'Harbour café',
      description: 'Quiet harbour. Café crème.',
      tags: ['Harbour'],
    });
  });

  it('answers any text with 200 or 400, never a server error, and 400 exactly for empty, over 200 characters or NUL', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (q) => {
        const answer = await app.api.request('GET', `/search?q=${encodeURIComponent(q)}`);
        // What the server sees: URL decoding turns a lone surrogate into U+FFFD, and it trims.
        const seen = new URLSearchParams(`q=${encodeURIComponent(q)}`).get('q')!.trim();
        // NUL is refused before any route (the input rules, decision 0561).
        const expected = seen === '' || [...seen].length > 200 || seen.includes('\u0000') ? 400 : 200;
        expect(answer.status, `${JSON.stringify(q)}: ${answer.text}`).toBe(expected);
        if (answer.status === 200) expect(answer.body.results).toEqual(expect.any(Array));
      }),
      { numRuns: 300 },
    );
  });
});
