/**
 * Runs `read` for many callers at once without ever answering a caller with a result read
 * before it asked: a caller arriving while a read is under way waits for the next one, which
 * starts as soon as that one ends and answers everyone who arrived meanwhile. Under load one
 * round trip to the database serves every request of its moment, instead of one each
 * (the read version on PostgreSQL: every cached read asks for it).
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<unknown> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const current = read();
    running = current;
    const clear = () => {
      if (running === current) running = undefined;
    };
    current.then(clear, clear);
    return current;
  };
  return () => {
    if (running === undefined) return start();
    next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}
