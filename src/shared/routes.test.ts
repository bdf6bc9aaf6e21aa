import { describe, expect, it } from 'vitest';
import { ARTICLE_PAGE_DEFAULT_LIMIT } from './articlePaging.ts';
import { articlesListPath } from './articlesApiPaths.ts';
import {
  firstDataPath,
  screenAt,
  isAppRoute,
  matchArticlePath,
  matchAuthorPath,
  matchEditArticlePath,
  matchTagPath,
  paths,
  screens,
} from './routes.ts';

describe('the screen table', () => {
  it('answers every link it builds as a screen, with the id read back as it was', () => {
    const id = 'a b/é';
    const links = [
      paths.home,
      paths.article(id),
      paths.login,
      paths.signup,
      paths.forgotPassword,
      paths.resetPassword,
      paths.profile,
      paths.newArticle,
      paths.editArticle(id),
      paths.author(id),
      paths.action,
      paths.admin,
      paths.tag(id),
      paths.search,
    ];
    for (const link of links) expect(isAppRoute(link), link).toBe(true);
    expect(links).toHaveLength(Object.keys(screens).length + 1);
    expect(matchArticlePath(paths.article(id))).toBe(id);
    expect(matchEditArticlePath(paths.editArticle(id))).toBe(id);
    expect(matchAuthorPath(paths.author(id))).toBe(id);
    expect(matchTagPath(paths.tag('cafe-culture'))).toBe('cafe-culture');
    expect(matchTagPath('/tag/cafe-culture/feed.xml')).toBeNull();
  });

  it('builds the links people see in the address bar', () => {
    expect(paths.article('abc')).toBe('/article/abc');
    expect(paths.newArticle).toBe('/article-update');
    expect(paths.editArticle('abc')).toBe('/article-update/abc');
    expect(paths.author('u1')).toBe('/author/u1');
  });

  it('takes trailing slashes but nothing else that is not a screen', () => {
    expect(isAppRoute('/login/')).toBe(true);
    expect(isAppRoute('/article/abc/')).toBe(true);
    for (const path of ['/nope', '//', '/article', '/article/a/b', '/login/x', '/article-updates', '/author']) {
      expect(isAppRoute(path), path).toBe(false);
    }
    expect(matchEditArticlePath(paths.newArticle)).toBeNull();
    expect(matchArticlePath('/article-update/abc')).toBeNull();
  });
});

describe("a screen's record", () => {
  it('gives the first data of the screens that read the articles API first, and none to the others', () => {
    expect(firstDataPath('/')).toBe(articlesListPath({ limit: ARTICLE_PAGE_DEFAULT_LIMIT }));
    expect(firstDataPath('/article/abc')).toBe('/articles/abc');
    expect(firstDataPath('/tag/slow-food/')).toBe('/articles?tag=slow-food&limit=20');
    // An author page's address names a slug, and its list is read by uid (decision 0420): it
    // arrives server-rendered instead.
    for (const pathname of ['/login', '/profile', '/article-update/abc', '/search', '/author/ada', '/nowhere']) {
      expect(firstDataPath(pathname), pathname).toBeNull();
    }
  });

  it('finds the screen at a path with its parameter', () => {
    expect(screenAt('/article-update')).toMatchObject({ name: 'editor', parameter: null });
    expect(screenAt('/article-update/x')).toMatchObject({ name: 'editor', parameter: 'x' });
    expect(screenAt('/author/a%2Fb')).toMatchObject({ name: 'author', parameter: 'a/b' });
    expect(screenAt('/nowhere')).toBeNull();
  });
});
