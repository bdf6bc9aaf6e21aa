import { afterEach, describe, expect, it } from 'vitest';
import { migratedJustBefore, type DatabaseBeforeMigration } from '../../../../test/support/migratedJustBefore.ts';
import { storageDatabases } from '../../../../test/support/testDatabases.ts';
import { renderMarkdown } from '../../../shared/markdown/renderMarkdown.ts';
import { migrateToLatest } from '../migrate.ts';

// `##` sections, as the importer writes Ghost's and WordPress's <h2>, and what the renderer
// before 0893 stored for them: every heading one level below what was written.
const SECTIONS = 'Intro.\n\n## What you need\n\n### The fish\n\n## Method\n\n`<h3>` is a tag.';
const OLD_SECTIONS_HTML =
  '<p>Intro.</p>\n<h3>What you need</h3>\n<h4>The fish</h4>\n<h3>Method</h3>\n<p><code>&lt;h3&gt;</code> is a tag.</p>\n';
const TOP_LEVEL = '# Part one\n\n## A detail';
const TOP_LEVEL_HTML = '<h2>Part one</h2>\n<h3>A detail</h3>\n';

describe.each(storageDatabases())('migration 0893 on $dialect', (dialectCase) => {
  let before: DatabaseBeforeMigration | undefined;

  afterEach(async () => {
    await before?.close();
  });

  it('moves the headings of articles that skipped a level up to start at h2, as a fresh render does, and leaves the rest alone', async () => {
    before = await migratedJustBefore(dialectCase, '0893_heading_outline');
    const { database, db } = before;
    await before.addOldAuthor();
    const article = (id: string, description: string, description_html: string) => ({
      id,
      image: 'https://pictures.example/p.jpg',
      title: `Title ${id}`,
      description,
      description_html,
      excerpt: 'kept',
      author_id: 'u1',
      date: 1,
    });
    await db
      .insertInto('articles')
      .values([
        article('a1-sections', SECTIONS, OLD_SECTIONS_HTML),
        article('a2-top-level', TOP_LEVEL, TOP_LEVEL_HTML),
        article('a3-plain', 'Just words.', '<p>kept as it is</p>\n'),
      ])
      .execute();
    // The old renderer's output is what the test writes as stored.
    expect(renderMarkdown(TOP_LEVEL).html).toBe(TOP_LEVEL_HTML);

    await migrateToLatest(database);

    const rows = await database.db
      .selectFrom('articles')
      .select(['id', 'description', 'description_html', 'excerpt'])
      .orderBy('id')
      .execute();
    const [sections, topLevel, plain] = rows;
    expect(sections!.description_html).toBe(renderMarkdown(SECTIONS).html);
    expect(sections!.description_html).toContain('<h2>What you need</h2>\n<h3>The fish</h3>\n<h2>Method</h2>');
    // Text that only looks like a tag is the author's, escaped: untouched.
    expect(sections!.description_html).toContain('<code>&lt;h3&gt;</code>');
    expect(sections!.description).toBe(SECTIONS);
    expect(sections!.excerpt).toBe('kept');
    expect(topLevel!.description_html).toBe(TOP_LEVEL_HTML);
    expect(plain!.description_html).toBe('<p>kept as it is</p>\n');
  });
});
