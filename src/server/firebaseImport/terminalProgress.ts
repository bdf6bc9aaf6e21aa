import type { Progress } from './importFirebase.ts';

/**
 * "Users: 41,000 / 100,000" rewritten in place on a terminal; nothing at all when the stream
 * is a pipe or a file, so scripts reading the output see only the result.
 */
export function terminalProgress(stream: {
  isTTY?: boolean;
  write(text: string): unknown;
}): ((what: string) => Progress) | undefined {
  if (!stream.isTTY) return undefined;
  return (what) => {
    let last = 0;
    return (done, total) => {
      const now = Date.now();
      if (done < total && now - last < 200) return;
      last = now;
      stream.write(
        `\r${what}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}${done === total ? '\n' : ''}`,
      );
    };
  };
}
