import { createHash } from 'node:crypto';
import type { ValueKind } from './targetSchema.ts';

const MASK = (1n << 64n) - 1n;

/** JSON with keys sorted: jsonb reorders keys, so both sides are compared in one spelling. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * One value in one spelling, whichever side it was read from: SQLite's 0/1 and PostgreSQL's
 * booleans, a blob and a bytea, epoch milliseconds and a timestamp, JSON text and parsed JSON.
 */
export function canonicalValue(value: unknown, kind: ValueKind): string | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return value === true || value === 'true' || (typeof value !== 'boolean' && Number(value) !== 0) ? '1' : '0';
    case 'bytes':
      return (Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8')).toString('hex');
    case 'json':
      return stableJson(typeof value === 'string' ? JSON.parse(value) : value);
    case 'timestamp':
      return String(value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value);
    case 'number':
      return String(Number(value));
    case 'text':
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
}

/**
 * A table's checksum that does not depend on the order rows are read in (SQLite's rowid order
 * and PostgreSQL's physical order differ, and text sorts differently under their collations):
 * the sum, modulo 2^64, of a SHA-256 of every row's canonical values, with the row count.
 */
export class TableChecksum {
  private sum = 0n;
  rows = 0;

  private readonly columns: string[];
  private readonly kinds: Map<string, ValueKind>;

  constructor(columns: string[], kinds: Map<string, ValueKind>) {
    this.columns = columns;
    this.kinds = kinds;
  }

  add(row: Record<string, unknown>): void {
    const values = this.columns.map((column) => canonicalValue(row[column], this.kinds.get(column) ?? 'text'));
    const digest = createHash('sha256').update(JSON.stringify(values)).digest();
    this.sum = (this.sum + digest.readBigUInt64BE(0)) & MASK;
    this.rows++;
  }

  get value(): string {
    return `${this.rows}:${this.sum.toString(16).padStart(16, '0')}`;
  }
}
