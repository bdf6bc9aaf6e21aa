import type { Readable } from 'node:stream';

/** An upload body refused while it arrives: 413 too large, 408 too slow. */
export class UploadBodyError extends Error {
  override name = 'UploadBodyError';
  readonly status: 408 | 413;
  constructor(status: 408 | 413, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads an upload's body into one Buffer: at most `maxBytes`, and all of it within `timeoutMs`
 * (counted from when its upload got a place, so a body trickling in holds that place no longer).
 * On refusal the stream is left unread: the answer closes the connection.
 */
export function readUploadBody(
  body: Readable,
  limits: { maxBytes: number; timeoutMs: number; tooLarge: string; tooSlow: string },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (outcome: () => void) => {
      clearTimeout(timer);
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      outcome();
    };
    const fail = (error: Error) =>
      done(() => {
        body.pause();
        chunks.length = 0;
        reject(error);
      });
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limits.maxBytes) return fail(new UploadBodyError(413, limits.tooLarge));
      chunks.push(chunk);
    };
    const onEnd = () => done(() => resolve(Buffer.concat(chunks, length)));
    const onError = (error: Error) => fail(error);
    // The client left before sending it all: drop what came.
    const onClose = () => fail(new Error('the upload body was cut off'));
    const timer = setTimeout(() => fail(new UploadBodyError(408, limits.tooSlow)), limits.timeoutMs);
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
    body.once('close', onClose);
  });
}
