import { z } from 'zod';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';
import { parseCsv } from '../../newsletters/subscriberCsv.ts';
import { ARTICLE_STATUSES } from '../../../shared/articleSchema.ts';
import { COMMENT_STATUSES } from '../../../shared/comments.ts';
import { ROLES } from '../../../shared/roles.ts';
import type { OpenedArchive } from './exportArchive.ts';

const time = z.iso.datetime().transform((value) => Date.parse(value));
const uid = z.string().min(1).max(128);

const authorsSchema = z.object({
  authors: z.array(
    z.object({
      uid,
      email: z.string().min(3).max(320),
      displayName: z.string().max(500).nullable(),
      photoUrl: z.string().max(2048).nullable(),
      role: z.enum(ROLES),
      emailVerified: z.boolean(),
      disabled: z.boolean(),
      createdAt: time,
      profile: z
        .object({
          slug: z.string().regex(/^[a-z0-9-]{1,200}$/),
          slugName: z.string().max(500),
          bio: z.string().max(5000),
        })
        .nullable(),
    }),
  ),
});

const imagesSchema = z.object({
  images: z.array(
    z.object({
      id: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
      ownerId: uid,
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      createdAt: time,
      files: z
        .array(
          z.object({
            name: z.string().regex(/^[A-Za-z0-9.]{1,40}$/),
            contentType: z.enum(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']),
          }),
        )
        .min(1),
    }),
  ),
});

const commentsSchema = z.object({
  comments: z.array(
    z.object({
      id: z.string().min(1).max(64),
      articleId: z.string().regex(/^[A-Za-z0-9]{20}$/),
      parentId: z.string().min(1).max(64).nullable(),
      authorUid: uid.nullable(),
      remoteAuthorId: z.string().max(2048).nullable(),
      remoteAuthorName: z.string().max(500).nullable(),
      remoteAuthorUrl: z.string().max(2048).nullable(),
      remoteAuthorPhotoUrl: z.string().max(2048).nullable(),
      remoteObjectId: z.string().max(2048).nullable(),
      body: z.string().max(100_000),
      status: z.enum(COMMENT_STATUSES),
      hiddenReason: z.string().max(2000).nullable(),
      createdAt: time,
      editedAt: time.nullable(),
    }),
  ),
});

const frontMatterSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{20}$/),
  title: z.string(),
  date: time,
  author: uid,
  authorName: z.string().nullable(),
  tags: z.array(z.string()),
  status: z.enum(ARTICLE_STATUSES),
  cover: z.string(),
  excerpt: z.string(),
  /** A scheduled article's time (decision 0851); it is published when it comes. */
  publishAt: time.optional(),
});

export type ExportedAuthor = z.infer<typeof authorsSchema>['authors'][number];
export type ExportedImage = z.infer<typeof imagesSchema>['images'][number];
export type ExportedComment = z.infer<typeof commentsSchema>['comments'][number];
export type ExportedArticle = z.infer<typeof frontMatterSchema> & { markdown: string };
export interface ExportedSubscriber {
  email: string;
  status: 'pending' | 'confirmed' | 'bounced';
  createdAt: number;
}

export interface ExportContents {
  authors: ExportedAuthor[];
  images: ExportedImage[];
  articles: ExportedArticle[];
  comments: ExportedComment[];
  subscribers: ExportedSubscriber[];
}

/**
 * Every text entry of an opened archive, checked by its schema and for what it refers to (an
 * article's author, a comment's article and thread, an image's owner and files): a problem is
 * one line naming the entry, before anything is written.
 */
export function exportContents(file: string, archive: OpenedArchive): ExportContents {
  const list = <T>(name: keyof OpenedArchive['lists'], schema: z.ZodType<T>): T => {
    let value: unknown;
    try {
      value = JSON.parse(archive.lists[name].toString('utf8'));
    } catch {
      throw new ImportFileError(file, `${name} is not JSON.`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new ImportFileError(file, `${name} is not as an export writes it (${where(parsed.error)}).`);
    return parsed.data;
  };
  const { authors } = list('authors.json', authorsSchema);
  const { images } = list('images.json', imagesSchema);
  const { comments } = list('comments.json', commentsSchema);
  const articles = archive.articles.map((bytes) => articleFile(file, bytes.toString('utf8')));
  const subscribers = subscribersFile(file, archive.lists['subscribers.csv'].toString('utf8'));

  const refuse = (problem: string) => {
    throw new ImportFileError(file, problem);
  };
  const uids = unique(
    authors.map((a) => a.uid),
    'authors.json names an account twice.',
    refuse,
  );
  unique(
    authors.map((a) => a.email.toLowerCase()),
    'authors.json names an address twice.',
    refuse,
  );
  const articleIds = unique(
    articles.map((a) => a.id),
    'two articles have the same id.',
    refuse,
  );
  for (const article of articles)
    if (!uids.has(article.author)) refuse(`article ${article.id}'s author is not in authors.json.`);
  for (const image of images) {
    if (!uids.has(image.ownerId)) refuse(`image ${image.id}'s owner is not in authors.json.`);
    for (const stored of image.files)
      if (!archive.imageFiles.has(`images/${image.id}/${stored.name}`))
        refuse(`images/${image.id}/${stored.name} is missing.`);
  }
  const commentIds = unique(
    comments.map((c) => c.id),
    'comments.json names a comment twice.',
    refuse,
  );
  const byId = new Map(comments.map((c) => [c.id, c]));
  for (const comment of comments) {
    if (!articleIds.has(comment.articleId)) refuse(`comment ${comment.id}'s article is not in the archive.`);
    if (comment.authorUid !== null && !uids.has(comment.authorUid))
      refuse(`comment ${comment.id}'s author is not in authors.json.`);
    if (
      comment.parentId !== null &&
      (!commentIds.has(comment.parentId) || byId.get(comment.parentId)!.parentId !== null)
    )
      refuse(`comment ${comment.id} answers a comment that is not a thread's first in the archive.`);
  }
  // Parents first: a reply's row refers to its thread's.
  comments.sort((a, b) => Number(a.parentId !== null) - Number(b.parentId !== null));
  return { authors, images, articles, comments, subscribers };
}

function articleFile(file: string, text: string): ExportedArticle {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)\n$/.exec(text);
  if (!match) throw new ImportFileError(file, 'an article file has no front matter.');
  const fields: Record<string, unknown> = {};
  for (const line of match[1]!.split('\n')) {
    const at = line.indexOf(': ');
    if (at < 0) throw new ImportFileError(file, 'an article file has a broken front matter line.');
    const key = line.slice(0, at);
    const raw = line.slice(at + 2);
    // siteExport.ts spells every value as JSON but the date and the status, which are bare.
    try {
      fields[key] = key === 'date' || key === 'status' ? raw : JSON.parse(raw);
    } catch {
      throw new ImportFileError(file, `an article file's ${key.slice(0, 40)} is not readable.`);
    }
  }
  const parsed = frontMatterSchema.safeParse(fields);
  if (!parsed.success)
    throw new ImportFileError(
      file,
      `an article's front matter is not as an export writes it (${where(parsed.error)}).`,
    );
  return { ...parsed.data, markdown: match[2]! };
}

function subscribersFile(file: string, text: string): ExportedSubscriber[] {
  const [header, ...rows] = parseCsv(text).filter((row) => row.some((field) => field !== ''));
  if (header?.join(',') !== 'email,status,created_at')
    throw new ImportFileError(file, 'subscribers.csv does not start with email,status,created_at.');
  return rows.map((row, index) => {
    const [email, status, created] = row;
    const createdAt = Date.parse(created ?? '');
    if (!email?.includes('@') || !['pending', 'confirmed', 'bounced'].includes(status ?? '') || Number.isNaN(createdAt))
      throw new ImportFileError(file, `subscribers.csv line ${index + 2} is not as an export writes it.`);
    return { email: email.toLowerCase(), status: status as ExportedSubscriber['status'], createdAt };
  });
}

function unique(values: string[], problem: string, refuse: (problem: string) => never | void): Set<string> {
  const set = new Set(values);
  if (set.size !== values.length) refuse(problem);
  return set;
}

const where = (error: z.ZodError) => {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'the top'}: ${issue.message}`;
};
