import { describe, expect, it } from 'vitest';
import { filesNamedByHtml, homePageChunks, screenChunks } from './bundleBudgetPlugin.ts';

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

describe('what index.html loads', () => {
  const html = `<!doctype html><head>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-def.js">
    <link rel="stylesheet" href="/assets/index-123.css">
    <link rel="icon" href="/favicon.svg">
    <script src="https://cdn.example.com/x.js"></script></head>`;

  it('finds module scripts and modulepreload hints, not styles, icons or other origins', () => {
    expect(filesNamedByHtml(html)).toEqual(['assets/index-abc.js', 'assets/vendor-def.js']);
  });

  it('counts a preloaded chunk the entry does not import, with its own imports', () => {
    const bundle = {
      'assets/index-abc.js': { code: '', isEntry: true, imports: [] },
      'assets/vendor-def.js': { code: '', isEntry: false, imports: ['assets/extra.js'] },
      'assets/extra.js': { code: '', isEntry: false, imports: [] },
      'assets/ProfilePage.js': { code: '', isEntry: false, imports: [] },
    };
    expect(homePageChunks(bundle, html).sort()).toEqual([
      'assets/extra.js',
      'assets/index-abc.js',
      'assets/vendor-def.js',
    ]);
  });
});

describe('screenChunks', () => {
  const bundle = {
    'index.js': { code: '', isEntry: true, imports: ['vendor.js'] },
    'vendor.js': { code: '', isEntry: false, imports: [] },
    'ArticlePage.js': {
      code: '',
      isEntry: false,
      imports: ['markdown.js'],
      facadeModuleId: '/repo/src/web/articles/ArticlePage.tsx',
    },
    'markdown.js': { code: '', isEntry: false, imports: ['vendor.js'] },
    'EditorPage.js': { code: '', isEntry: false, imports: [], facadeModuleId: '/repo/src/web/EditorPage.tsx' },
  };

  it("counts the home page's files, the screen's chunk and its static imports, not other screens", () => {
    expect(screenChunks(bundle, '', 'src/web/articles/ArticlePage.tsx').sort()).toEqual([
      'ArticlePage.js',
      'index.js',
      'markdown.js',
      'vendor.js',
    ]);
  });

  it('fails when no chunk was built for the screen, rather than measuring nothing', () => {
    expect(() => screenChunks(bundle, '', 'src/web/articles/Renamed.tsx')).toThrow(/no chunk/);
  });
});
