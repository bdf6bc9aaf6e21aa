import { emailSchema } from './subscribers.ts';

/** The header names an address column goes by in Ghost, Substack and Mailchimp exports. */
const EMAIL_HEADERS = ['email', 'email address', 'e-mail', 'e-mail address'];

/** One CSV record's fields (RFC 4180: quoted fields may hold commas, quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((fields) => fields.some((value) => value.trim() !== ''));
}

/**
 * The valid, distinct, lower-cased addresses of an export's `email` column, and how many rows
 * had none; undefined when no column is named email.
 */
export function subscriberAddresses(text: string): { emails: string[]; invalid: number } | undefined {
  const [header, ...rows] = parseCsv(text);
  const column = header?.findIndex((name) => EMAIL_HEADERS.includes(name.trim().toLowerCase())) ?? -1;
  if (column === -1) return undefined;
  const emails = new Set<string>();
  let invalid = 0;
  for (const row of rows) {
    const parsed = emailSchema.safeParse(row[column] ?? '');
    if (parsed.success) emails.add(parsed.data);
    else invalid += 1;
  }
  return { emails: [...emails], invalid };
}

/** A CSV field, quoted when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
