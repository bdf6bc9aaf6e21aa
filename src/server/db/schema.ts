import type { ArticlesTables } from '../articles/articlesTables.ts';

/**
 * The whole database as Kysely sees it: one interface per feature, composed here.
 * Each feature declares its own tables next to its repository and only queries those.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- composed only from the features' tables
export interface DatabaseSchema extends ArticlesTables {}
