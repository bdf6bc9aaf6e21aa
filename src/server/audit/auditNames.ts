import type { AuditEntryJson, NamedAuditEntryJson } from '../../shared/moderation.ts';

/**
 * Where the Log's names come from: each feature's batch read, wired in services.ts. Every
 * answer leaves out what no longer exists.
 */
export interface AuditNameSources {
  /** Accounts' display names as of now (null: the account has none). */
  accounts(uids: readonly string[]): Promise<Map<string, { name: string | null }>>;
  /** Articles' titles as of now, whatever their status. */
  articles(ids: readonly string[]): Promise<Map<string, string>>;
  /** Comments' excerpts. */
  comments(ids: readonly string[]): Promise<Map<string, string>>;
  /** What each report is of. */
  reports(ids: readonly string[]): Promise<Map<string, { articleId: string; commentId: string | null }>>;
}

/** A page of entries with their names: one batch read per kind, however many entries. */
export async function nameAuditEntries(
  entries: readonly AuditEntryJson[],
  sources: AuditNameSources,
): Promise<NamedAuditEntryJson[]> {
  const idsOf = (type: string) => entries.filter((entry) => entry.targetType === type).map((entry) => entry.targetId);
  const reports = await sources.reports(idsOf('report'));
  const reported = [...reports.values()];
  const actors = entries.flatMap((entry) => (entry.actorUid === null ? [] : [entry.actorUid]));
  const [accounts, articles, comments] = await Promise.all([
    sources.accounts([...actors, ...idsOf('user')]),
    sources.articles([...idsOf('article'), ...reported.map((report) => report.articleId)]),
    sources.comments([
      ...idsOf('comment'),
      ...reported.flatMap((report) => (report.commentId === null ? [] : [report.commentId])),
    ]),
  ]);
  const targetName = (type: string, id: string): { targetName: string | null; targetGone: boolean } => {
    const named = (name: string | null | undefined, exists: boolean) => ({
      targetName: name ?? null,
      targetGone: !exists,
    });
    switch (type) {
      case 'user':
        return named(accounts.get(id)?.name, accounts.has(id));
      case 'article':
        return named(articles.get(id), articles.has(id));
      case 'comment':
        return named(comments.get(id), comments.has(id));
      case 'report': {
        const report = reports.get(id);
        if (!report) return named(null, false);
        // A report is named by what it reported: the comment's excerpt, else the article's title.
        const name = report.commentId === null ? articles.get(report.articleId) : comments.get(report.commentId);
        return named(name, name !== undefined);
      }
      default:
        return { targetName: null, targetGone: false };
    }
  };
  return entries.map((entry) => ({
    ...entry,
    actorName: entry.actorUid === null ? null : (accounts.get(entry.actorUid)?.name ?? null),
    actorGone: entry.actorUid !== null && !accounts.has(entry.actorUid),
    ...targetName(entry.targetType, entry.targetId),
  }));
}
