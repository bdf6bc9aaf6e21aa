import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** One passkey the test authenticator holds. */
export interface SoftPasskey {
  id: string;
  /** The user handle the relying party gave it (base64url). */
  userHandle: string;
  rpId: string;
  privateKey: KeyObject;
  /** The signature counter it reports next (incremented before each use). */
  counter: number;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

// Flags of authenticator data: user present, user verified, attested credential data included.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A software authenticator for server tests (the browser tests use Chromium's virtual one): ES256
 * keys, "none" attestation, discoverable passkeys. It builds what a browser would send to the
 * server; the CBOR encoding is @simplewebauthn's own. `origin` and `counter` can be forged
 * to play an attacker or a cloned authenticator.
 */
export function softAuthenticator(defaultOrigin: string) {
  const held: SoftPasskey[] = [];
  return {
    held,

    register(
      options: PublicKeyCredentialCreationOptionsJSON,
      forged: { origin?: string; userVerified?: boolean } = {},
    ): { response: RegistrationResponseJSON; passkey: SoftPasskey } {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cosePublicKey = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
          [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
        ]),
      );
      const credentialId = randomBytes(16);
      const rpId = options.rp.id!;
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([UP | AT | (forged.userVerified === false ? 0 : UV)]),
        u32(0),
        Buffer.alloc(16), // AAGUID: none
        Buffer.from([0, credentialId.length]),
        credentialId,
        cosePublicKey,
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', new Uint8Array(authData)],
        ]),
      );
      const id = credentialId.toString('base64url');
      const passkey: SoftPasskey = { id, userHandle: options.user.id, rpId, privateKey, counter: 0 };
      held.push(passkey);
      return {
        passkey,
        response: {
          id,
          rawId: id,
          type: 'public-key',
          clientExtensionResults: {},
          response: {
            clientDataJSON: clientData('webauthn.create', options.challenge, forged.origin ?? defaultOrigin).toString(
              'base64url',
            ),
            attestationObject: Buffer.from(attestationObject).toString('base64url'),
            transports: ['internal'],
          },
        },
      };
    },

    /** Answers a sign-in with `passkey`; a passkey whose counter is forged does not advance it. */
    signIn(
      options: PublicKeyCredentialRequestOptionsJSON,
      passkey: SoftPasskey,
      forged: { origin?: string; counter?: number; userHandle?: string } = {},
    ): AuthenticationResponseJSON {
      const counter = forged.counter ?? (passkey.counter += 1);
      const authenticatorData = Buffer.concat([
        sha256(options.rpId ?? passkey.rpId),
        Buffer.from([UP | UV]),
        u32(counter),
      ]);
      const clientDataJSON = clientData('webauthn.get', options.challenge, forged.origin ?? defaultOrigin);
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), passkey.privateKey);
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: clientDataJSON.toString('base64url'),
          authenticatorData: authenticatorData.toString('base64url'),
          signature: signature.toString('base64url'),
          userHandle: forged.userHandle ?? passkey.userHandle,
        },
      };
    },
  };
}
