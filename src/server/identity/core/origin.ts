/** Where a logger writes the core's warnings; a request's logger keeps its request id on them. */
export interface CoreLog {
  warn(details: object, message: string): void;
}

/**
 * Who is asking, as far as the core needs to know: the client address its rate limits count
 * by, and the log its warnings go to. Each door fills it in (HTTP: the request; admin: 'admin').
 */
export interface Origin {
  ip: string;
  log: CoreLog;
}
