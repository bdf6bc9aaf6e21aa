import { decodeBase64 } from './base64.ts';
import { checkFirebaseHashBounds, type FirebaseHashParameters } from '../identity/createIdentity.ts';
import { ImportFileError } from './importFileError.ts';

/**
 * The project's password hash parameters, as JSON ({"algorithm": "SCRYPT", "base64_signer_key",
 * "base64_salt_separator", "rounds", "mem_cost"}) or as the console's text block:
 *
 *   hash_config {
 *     algorithm: SCRYPT,
 *     base64_signer_key: ...,
 *     base64_salt_separator: Bw==,
 *     rounds: 8,
 *     mem_cost: 14,
 *   }
 */
export function parseHashConfig(file: string, text: string): FirebaseHashParameters {
  const fields = text.trimStart().startsWith('{') ? jsonFields(file, text) : blockFields(file, text);
  const fail = (problem: string) => new ImportFileError(file, problem);
  if (String(fields.algorithm ?? '').toUpperCase() !== 'SCRYPT') {
    throw fail('algorithm must be SCRYPT (the only hash Firebase Auth exports with these parameters)');
  }
  const bytes = (name: string) => {
    const value = fields[name];
    if (typeof value !== 'string' || value === '') throw fail(`${name} is missing`);
    const decoded = decodeBase64(value);
    if (!decoded || decoded.length > 1024) throw fail(`${name} is not base64 of at most 1024 bytes`);
    return decoded;
  };
  const integer = (name: string) => {
    const value = fields[name];
    if (value === undefined || value === '') throw fail(`${name} is missing`);
    const number = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
    return number;
  };
  const params = {
    signerKey: bytes('base64_signer_key'),
    saltSeparator: bytes('base64_salt_separator'),
    rounds: integer('rounds'),
    memCost: integer('mem_cost'),
  };
  try {
    checkFirebaseHashBounds(params);
  } catch (error) {
    throw fail((error as Error).message);
  }
  return params;
}

function jsonFields(file: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFileError(file, 'not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ImportFileError(file, 'not a JSON object of hash parameters');
  }
  const record = value as Record<string, unknown>;
  // Some tools wrap the parameters: {"hash_config": {...}}.
  const inner = record.hash_config;
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : record;
}

function blockFields(file: string, text: string): Record<string, string> {
  const match = /^\s*hash_config\s*\{([^}]*)\}\s*$/.exec(text);
  if (!match) throw new ImportFileError(file, 'neither JSON nor a hash_config { ... } block');
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split(/[\n,]/)) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const pair = /^([a-z_0-9]+)\s*:\s*"?([^"]*)"?$/.exec(trimmed);
    if (!pair) throw new ImportFileError(file, `cannot read the line "${trimmed.slice(0, 40)}"`);
    fields[pair[1]!] = pair[2]!.trim();
  }
  return fields;
}
