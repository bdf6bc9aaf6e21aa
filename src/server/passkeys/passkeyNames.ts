import { MAX_PASSKEY_NAME_LENGTH } from '../../shared/passkeyProtocol.ts';

/**
 * The name a new passkey gets: the one proposed at registration (the page proposes the device,
 * "Chrome on macOS"), numbered when the account already has a passkey of that name ("Chrome on
 * macOS (2)"), so two keys made on one device can be told apart in the list (issue 26.9). Names
 * compare case-insensitively, as a person reads them; a rename may still choose any name.
 */
export function uniquePasskeyName(wanted: string, taken: readonly string[]): string {
  const names = new Set(taken.map((name) => name.toLocaleLowerCase()));
  if (!names.has(wanted.toLocaleLowerCase())) return wanted;
  // An account's passkeys are capped (passkeyLimits), so this ends within a few numbers.
  for (let number = 2; ; number += 1) {
    const suffix = ` (${number})`;
    const base = [...wanted]
      .slice(0, MAX_PASSKEY_NAME_LENGTH - suffix.length)
      .join('')
      .trimEnd();
    const candidate = `${base}${suffix}`;
    if (!names.has(candidate.toLocaleLowerCase())) return candidate;
  }
}
