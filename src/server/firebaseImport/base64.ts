// Firebase exports use standard base64; some tools rewrite it URL-safe. Both are accepted.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The bytes of standard or URL-safe base64 text; undefined when it is not base64. */
export function decodeBase64(text: string): Buffer | undefined {
  if (!BASE64.test(text)) return undefined;
  return Buffer.from(text.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
}
