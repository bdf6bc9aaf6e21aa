/**
 * A password of spaces alone (any white space): it passes a length rule, yet nobody chose it to
 * keep a secret. The server refuses it; the forms say so before sending it.
 */
export function isOnlySpaces(password: string): boolean {
  return password.length > 0 && password.trim() === '';
}
