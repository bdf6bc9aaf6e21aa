/** How often each process looks for scheduled articles whose time has come. */
export const SCHEDULE_POLL_MS = 1000;

/** Articles one poll publishes at most, in one transaction; more wait for the next poll. */
const BATCH = 20;

export interface ScheduledPublishingDeps {
  /** Publishes the due articles (articleWriteQueries.ts publishDue); returns how many. */
  publishDue(now: number, limit: number): Promise<number>;
  now: () => number;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
  intervalMs?: number;
}

/**
 * Publishes scheduled articles at their time while the server runs, in every process sharing
 * the database (decision 0852): each poll claims the due rows in the database, so an article is
 * published once however many processes look. The first poll runs at once, so a process started
 * after an article's time (a restart, a deploy) publishes it without waiting. Returns stop,
 * which waits for a poll in progress.
 */
export function startScheduledPublishing(deps: ScheduledPublishingDeps): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const poll = async () => {
    try {
      // A full batch means more may be due: go on at once.
      for (;;) {
        const published = await deps.publishDue(deps.now(), BATCH);
        if (published > 0) deps.log.info({ published }, 'scheduled articles published');
        if (published < BATCH || stopped) break;
      }
    } catch (error) {
      // Either way the next poll tries again. Another process's write winning SQLite's one writer
      // lock is the expected race of several processes (that one publishes the articles): not an
      // error for the operator's log. Anything else (the database away) is.
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
        deps.log.info({}, 'scheduled publishing left to another process this time');
        return;
      }
      deps.log.error(
        { reason: error instanceof Error ? error.message : String(error) },
        'scheduled publishing poll failed',
      );
    }
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll().then(next);
    }, deps.intervalMs ?? SCHEDULE_POLL_MS);
    timer.unref();
  };
  running = poll().then(next);

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
