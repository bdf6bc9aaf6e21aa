import pinoPretty from 'pino-pretty';

interface LogLine {
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** "GET /api/articles 200 in 3 ms" for a request line; the message alone for any other. */
export function terminalMessage(log: LogLine): string {
  const message = log.msg ?? '';
  if (!log.req?.method) return message;
  const request = `${log.req.method} ${log.req.url ?? ''}`;
  if (message === 'request completed' && log.res?.statusCode !== undefined) {
    const time = log.responseTime === undefined ? '' : ` in ${Math.round(log.responseTime)} ms`;
    return `${request} ${log.res.statusCode}${time}`;
  }
  return `${message} (${request})`;
}

/**
 * Log lines for a person at a terminal (`npm start` in a shell): time, level and a sentence,
 * coloured; other fields (an error's stack, a signal) follow on one line. A process whose
 * standard output is not a terminal keeps writing JSON lines for log collectors (main.ts).
 * Synchronous, in this process: a worker thread would cost memory for no gain at a terminal.
 */
export function terminalLogStream(colorize = true) {
  return pinoPretty({
    colorize,
    sync: true,
    destination: 1,
    translateTime: 'SYS:HH:MM:ss',
    singleLine: true,
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: (log) => terminalMessage(log as LogLine),
  });
}
