import fs from 'node:fs';
import { isRole, ROLES } from '../../shared/roles.ts';
import type { TextSink } from './adminCommands.ts';
import { ADMIN_USAGE, COMMAND_NAMES, VALUE_OPTIONS, type CommandName, type ValueOption } from './adminUsage.ts';

/** What a command reads and writes besides its arguments. */
export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: TextSink;
  stderr: TextSink;
}

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

type Parsed =
  | { help: true }
  | { help: false; json: boolean; name: CommandName; argument: string; options: Partial<Record<ValueOption, string>> };

class UsageError extends Error {}

function parse(argv: string[]): Parsed {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true };
  const json = argv.includes('--json');
  const options: Partial<Record<ValueOption, string>> = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--json') continue;
    if (Object.hasOwn(VALUE_OPTIONS, word)) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('-')) throw new UsageError(`${word} needs a value.`);
      options[word as ValueOption] = value;
      i++;
    } else if (word.startsWith('-')) {
      throw new UsageError(`Unknown option ${word}.`);
    } else {
      words.push(word);
    }
  }
  if (words.length === 0) throw new UsageError('No command given.');
  const name = (Object.keys(COMMAND_NAMES) as CommandName[]).find((candidate) =>
    candidate.split(' ').every((word, i) => words[i] === word),
  );
  if (!name) throw new UsageError(`Unknown command "${words.join(' ')}".`);
  const rest = words.slice(name.split(' ').length);
  const argument = COMMAND_NAMES[name];
  const wanted = argument ? argument.split(' ').length : 0;
  if (argument && rest.length !== wanted) {
    throw new UsageError(wanted === 1 ? `"${name}" needs one ${argument}.` : `"${name}" needs ${argument}.`);
  }
  if (!argument && rest.length > 0) throw new UsageError(`"${name}" takes no arguments.`);
  for (const option of Object.keys(options) as ValueOption[]) {
    if (!(VALUE_OPTIONS[option] as readonly CommandName[]).includes(name)) {
      throw new UsageError(`${option} is not an option of "${name}".`);
    }
  }
  if (name === 'import-firebase' && (!options['--users'] || !options['--hash-config'])) {
    throw new UsageError('"import-firebase" needs --users FILE and --hash-config FILE.');
  }
  if (name === 'copy-database' && !options['--to']) {
    throw new UsageError('"copy-database" needs --to postgres://...');
  }
  const role = name === 'users role' ? rest[1] : name === 'invite' ? rest[0] : options['--role'];
  if (role !== undefined && !isRole(role)) {
    throw new UsageError(`Unknown role "${role}": use one of ${ROLES.join(', ')}.`);
  }
  return { help: false, json, name, argument: rest.join(' '), options };
}

/**
 * `npm run admin ARGS`: parses the arguments, runs the command against the configured database
 * and returns the exit status. adminCommand.ts is the process door; tests call this directly.
 */
export async function runAdminCommand(argv: string[], io: AdminIo): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n\n${ADMIN_USAGE}`);
    return EXIT_USAGE;
  }
  if (parsed.help) {
    io.stdout.write(ADMIN_USAGE);
    return EXIT_OK;
  }
  const fail = (message: string) => {
    io.stderr.write(`${message}\n`);
    if (parsed.json) io.stdout.write(`${JSON.stringify({ error: message })}\n`);
    return EXIT_FAILED;
  };

  // Loaded only now: help and misuse answer without loading the whole server.
  const { ConfigError, loadConfig } = await import('../config.ts');
  const { openDatabase } = await import('../db/database.ts');
  const { commands, CommandFailure } = await import('./adminCommands.ts');
  const { ImportFileError } = await import('../firebaseImport/importFileError.ts');
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  // A mistyped DATA_DIR must not quietly create an empty database; only migrate and an
  // import (which migrates first, as npm start does) create one.
  const creates = ['migrate', 'import-firebase', 'import-ghost', 'import-wordpress', 'import-export'].includes(
    parsed.name,
  );
  if (config.database.kind === 'sqlite' && !creates && !fs.existsSync(config.database.file)) {
    return fail(`No database at ${config.database.file} (check DATA_DIR or DATABASE_URL).`);
  }
  const database = openDatabase(config.database);
  try {
    const result = await commands[parsed.name](
      { config, database, options: parsed.options, stderr: io.stderr },
      parsed.argument,
    );
    if (!parsed.json) io.stdout.write(`${result.text}\n`);
    else if (result.jsonLines && Array.isArray(result.json)) {
      io.stdout.write(result.json.map((line) => `${JSON.stringify(line)}\n`).join(''));
    } else io.stdout.write(`${JSON.stringify(result.json, null, 2)}\n`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommandFailure) return fail(error.message);
    // A file unusable as a whole: one line naming it, nothing on stdout, nothing written.
    if (error instanceof ImportFileError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_USAGE;
    }
    // Unexpected (database unreachable, disk full): the message only, no stack trace.
    return fail(`Failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await database.close();
  }
}
