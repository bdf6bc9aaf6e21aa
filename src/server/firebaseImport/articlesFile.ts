import { parseArticleInput } from '../../shared/articleSchema.ts';
import { isArticleId } from '../articles/articleId.ts';
import type { Skip } from './usersFile.ts';
import { parseFirebaseDate } from './firebaseDates.ts';
import { ImportFileError } from './importFileError.ts';
import { readJsonFile } from './readJsonFile.ts';

export interface ImportedArticle {
  id: string;
  image: string;
  title: string;
  description: string;
  authorId: string;
  date: number;
}

/**
 * A Firebase project's `articles` collection (docs/migrating-from-firebase.md): an array of {id, image, title, description, authorId, date}
 * or an object keyed by document id. Each document is validated as the API validates a body;
 * whether its author exists is decided at import time.
 */
export async function readArticlesFile(
  file: string,
  now = Date.now(),
): Promise<{ articles: ImportedArticle[]; skipped: Skip[] }> {
  const root = await readJsonFile(file);
  let documents: [string | undefined, unknown][];
  if (Array.isArray(root)) documents = root.map((document) => [undefined, document]);
  else if (typeof root === 'object' && root !== null) documents = Object.entries(root);
  else throw new ImportFileError(file, 'not an array of articles or an object keyed by document id');
  const articles: ImportedArticle[] = [];
  const skipped: Skip[] = [];
  documents.forEach(([key, document], index) => {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      throw new ImportFileError(file, `article ${key ?? `[${index}]`} is not an object`);
    }
    const record = document as Record<string, unknown>;
    const id = key ?? record.id;
    if (typeof id !== 'string' || id === '') throw new ImportFileError(file, `article [${index}] has no id`);
    const outcome = readArticle(id, record, now);
    if (typeof outcome === 'string') skipped.push({ id, reason: outcome });
    else articles.push(outcome);
  });
  return { articles, skipped };
}

/** Articles are listed newest first: a date further ahead than this would pin one to the top for good. */
const FUTURE_ALLOWANCE_MS = 24 * 60 * 60 * 1000;

function readArticle(id: string, record: Record<string, unknown>, now: number): ImportedArticle | string {
  // Firestore's generated ids have the shape of Inkwell's (20 of [A-Za-z0-9]); an id chosen
  // by hand in another shape could not be served at /article/:id, so it is not imported.
  if (!isArticleId(id)) return 'id is not 20 characters of A-Z, a-z and 0-9 (a Firestore generated id)';
  const fields = parseArticleInput({ image: record.image, title: record.title, description: record.description });
  if (!fields.success) return fields.errors.map((error) => error.message).join(' ');
  if (typeof record.authorId !== 'string' || record.authorId === '') return 'no authorId';
  const date = parseFirebaseDate(record.date);
  if (date === undefined) return 'date is missing or not a date';
  if (date < 0) return 'date is before 1970';
  if (date > now + FUTURE_ALLOWANCE_MS) return 'date is more than a day in the future';
  return { id, ...fields.data, authorId: record.authorId, date };
}
