/** The WebAuthn relying party: PUBLIC_URL's host is its id, and PUBLIC_URL's origin the only accepted origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingParty(publicUrl: string, name: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, name, origin: url.origin };
}
