import { describe, expect, it } from 'vitest';
import { toJsonResource, toJsonResourceInSteps } from './cachedResource.ts';

describe('a list page serialised in steps', () => {
  it.each([0, 1, 10, 25])(
    'is byte for byte the JSON of the page, with the same validator (%i items)',
    async (count) => {
      const articles = Array.from({ length: count }, (_, i) => ({ id: `a${i}`, title: `Tïtle "${i}" </script>` }));
      for (const nextCursor of [null, 'abc']) {
        const stepped = await toJsonResourceInSteps('articles', articles, { nextCursor });
        const whole = toJsonResource({ articles, nextCursor });
        expect(stepped.body.toString('utf8')).toBe(whole.body.toString('utf8'));
        expect(stepped.etag).toBe(whole.etag);
        expect(stepped.contentType).toBe('application/json; charset=utf-8');
      }
    },
  );
});
