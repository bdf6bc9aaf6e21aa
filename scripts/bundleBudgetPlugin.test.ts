import { describe, expect, it } from 'vitest';
import { homePageChunks } from './bundleBudgetPlugin.ts';

describe('homePageChunks', () => {
  it('counts the entry and its static imports, not lazily loaded screens', () => {
    const bundle = {
      'index.js': { code: '', isEntry: true, imports: ['vendor.js'] },
      'vendor.js': { code: '', isEntry: false, imports: ['shared.js'] },
      'shared.js': { code: '', isEntry: false, imports: ['vendor.js'] },
      'ProfilePage.js': { code: '', isEntry: false, imports: ['shared.js'] },
    };
    expect(homePageChunks(bundle).sort()).toEqual(['index.js', 'shared.js', 'vendor.js']);
  });
});
