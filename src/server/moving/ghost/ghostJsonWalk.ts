import { createReadStream } from 'node:fs';
import { isMany, none } from 'stream-chain/defs.js';
import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/parser.js';

/** One value the walk hands out: `db[0].meta`, or one element of a table array `db[0].data.<table>`. */
export interface GhostItem {
  table: string;
  /** The element's index in its table (meta: 0), for error messages. */
  index: number;
  value: unknown;
}

/** The file is JSON but not shaped as a Ghost export: what is wrong, and where (`db.0.data.posts`). */
export class GhostShapeError extends Error {
  readonly where: string;
  constructor(where: string, reason: string) {
    super(reason);
    this.where = where;
  }
}

/** The file is not JSON (cut short, or another format). */
export class GhostSyntaxError extends Error {}

interface Frame {
  array: boolean;
  /** An object's current key, or an array's next index. */
  at: string | number;
}

/**
 * Bounds on what one value may make the walk hold, whatever the file: a string or number (an
 * HTML over the 2 MB post limit is skipped later; this stops a hostile one before it fills the
 * heap) and the nesting (a file of brackets would grow the stack by each).
 */
export const GHOST_STRING_MAX_CHARS = 8 * 1024 * 1024;
export const GHOST_DEPTH_MAX = 64;

// The parser's streamed pieces of strings, keys and numbers: counted, then left out (the
// assembler and the walk read the packed values that follow them).
const STREAMED = new Set<Token['name']>([
  'startString',
  'stringChunk',
  'endString',
  'startKey',
  'endKey',
  'startNumber',
  'numberChunk',
  'endNumber',
]);

const VALUE_START = new Set<Token['name']>([
  'startObject',
  'startArray',
  'stringValue',
  'numberValue',
  'nullValue',
  'trueValue',
  'falseValue',
]);

/**
 * Walks a Ghost export as a stream (stream-json's tokenizer over 256 KB reads) and yields
 * `db[0].meta` and the elements of the tables asked for, one value at a time, in file order:
 * only the value being assembled is held, never the file nor a whole table. Keys in `dropped`
 * of a table's elements (a post's editor documents) are skipped unassembled. A file that is not
 * JSON throws GhostSyntaxError; JSON in another shape GhostShapeError; a missing `db[0].meta` or
 * table array is left to the caller (it sees which tables came).
 */
export async function* walkGhostExport(
  file: string,
  tables: ReadonlySet<string>,
  dropped: ReadonlySet<string>,
  /** Filled with the tables asked for whose array the file has. */
  found: Set<string>,
): AsyncGenerator<GhostItem> {
  // Strings come in pieces as well as whole, so a long one is seen growing (GHOST_STRING_MAX_CHARS).
  const tokenize = jsonParser();
  let run = 0;
  const frames: Frame[] = [];
  let assembling: { asm: Assembler; item: Omit<GhostItem, 'value'> } | null = null;
  // While > 0: inside a dropped value, counting its open containers (-1: a primitive is next).
  let skipping = 0;
  const ready: GhostItem[] = [];
  let rooted = false;

  const where = () => frames.map((frame) => frame.at).join('.') || 'the file';
  const advance = () => {
    const top = frames.at(-1);
    if (top?.array) top.at = (top.at as number) + 1;
  };

  const walk = (token: Token) => {
    if (STREAMED.has(token.name)) {
      if (token.name === 'stringChunk' || token.name === 'numberChunk') {
        run += token.value.length;
        if (run > GHOST_STRING_MAX_CHARS) {
          throw new GhostShapeError(where(), `a value is over ${GHOST_STRING_MAX_CHARS / 1024 / 1024} M characters`);
        }
      } else run = 0;
      return;
    }
    if (frames.length + (assembling?.asm.depth ?? 0) > GHOST_DEPTH_MAX) {
      throw new GhostShapeError(where(), `values are nested over ${GHOST_DEPTH_MAX} deep`);
    }
    if (assembling) {
      const { asm, item } = assembling;
      if (skipping !== 0) {
        if (token.name === 'startObject' || token.name === 'startArray') skipping = skipping < 0 ? 1 : skipping + 1;
        else if (token.name === 'endObject' || token.name === 'endArray') skipping--;
        else if (skipping < 0) skipping = 0;
        return;
      }
      if (token.name === 'keyValue' && asm.depth === 1 && dropped.has(token.value)) {
        skipping = -1;
        return;
      }
      asm.consume(token);
      if (asm.done) {
        ready.push({ ...item, value: asm.current });
        assembling = null;
        advance();
      }
      return;
    }
    if (token.name === 'keyValue') {
      frames.at(-1)!.at = token.value;
      return;
    }
    if (token.name === 'endObject' || token.name === 'endArray') {
      frames.pop();
      advance();
      return;
    }
    if (!VALUE_START.has(token.name)) return;
    const container = token.name === 'startObject' || token.name === 'startArray';
    const depth = frames.length;
    const underDb0 = depth >= 2 && frames[0]!.at === 'db' && frames[1]!.at === 0;
    // The containers on the way down, db → db[0] → data, each checked for its kind.
    const mustBe =
      depth === 0 || (depth === 2 && underDb0) || (depth === 3 && underDb0 && frames[2]!.at === 'data')
        ? 'startObject'
        : depth === 1 && frames[0]!.at === 'db'
          ? 'startArray'
          : null;
    if (mustBe && token.name !== mustBe) {
      throw new GhostShapeError(
        where() || 'the file',
        mustBe === 'startArray' ? 'expected an array' : 'expected an object',
      );
    }
    if (depth === 0) rooted = true;
    const table = depth >= 4 && underDb0 && frames[2]!.at === 'data' ? String(frames[3]!.at) : null;
    if (depth === 4 && table !== null && tables.has(table) && token.name !== 'startArray') {
      throw new GhostShapeError(where(), 'expected an array');
    }
    if (depth === 4 && table !== null && tables.has(table)) found.add(table);
    const wanted =
      depth === 3 && underDb0 && frames[2]!.at === 'meta'
        ? { table: 'meta', index: 0 }
        : depth === 5 && table !== null && tables.has(table)
          ? { table, index: frames[4]!.at as number }
          : null;
    if (wanted) {
      assembling = { asm: new Assembler(), item: wanted };
      walk(token);
      return;
    }
    if (container) frames.push({ array: token.name === 'startArray', at: token.name === 'startArray' ? 0 : '' });
    else advance();
  };

  const feed = (text: string | typeof none) => {
    let out;
    try {
      // `none` ends the input (stream-chain's flush): the tokenizer then says whether the JSON was whole.
      out = tokenize(text as string);
    } catch (error) {
      throw new GhostSyntaxError(error instanceof Error ? error.message : String(error));
    }
    if (isMany(out)) for (const token of out.values as Token[]) walk(token);
  };

  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    feed(chunk as string);
    yield* ready.splice(0);
  }
  feed(none);
  if (!rooted || frames.length > 0 || assembling) throw new GhostSyntaxError('the file ends early');
  yield* ready.splice(0);
}
