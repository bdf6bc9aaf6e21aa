import fs from 'node:fs';
import module from 'node:module';
import { ADMIN_USAGE, COMMAND_NAMES, type CommandName } from './adminUsage.ts';

// A short-lived command loads most of the server each run; Node's on-disk compile cache
// (in the OS temp directory) roughly halves that on later runs.
module.enableCompileCache?.();

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

type Parsed = { help: true } | { help: false; json: boolean; name: CommandName; argument: string };

class UsageError extends Error {}

function parse(argv: string[]): Parsed {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true };
  const json = argv.includes('--json');
  const unknownOption = argv.find((word) => word.startsWith('-') && word !== '--json');
  if (unknownOption) throw new UsageError(`Unknown option ${unknownOption}.`);
  const words = argv.filter((word) => word !== '--json');
  if (words.length === 0) throw new UsageError('No command given.');
  const name = (Object.keys(COMMAND_NAMES) as CommandName[]).find((candidate) =>
    candidate.split(' ').every((word, i) => words[i] === word),
  );
  if (!name) throw new UsageError(`Unknown command "${words.join(' ')}".`);
  const rest = words.slice(name.split(' ').length);
  const argument = COMMAND_NAMES[name];
  if (argument && rest.length !== 1) throw new UsageError(`"${name}" needs one ${argument}.`);
  if (!argument && rest.length > 0) throw new UsageError(`"${name}" takes no arguments.`);
  return { help: false, json, name, argument: rest[0] ?? '' };
}

async function main(argv: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${ADMIN_USAGE}`);
    return EXIT_USAGE;
  }
  if (parsed.help) {
    process.stdout.write(ADMIN_USAGE);
    return EXIT_OK;
  }
  const fail = (message: string) => {
    process.stderr.write(`${message}\n`);
    if (parsed.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    return EXIT_FAILED;
  };

  // Loaded only now: help and misuse answer without loading the whole server.
  const { ConfigError, loadConfig } = await import('../config.ts');
  const { openDatabase } = await import('../db/database.ts');
  const { commands, CommandFailure } = await import('./adminCommands.ts');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  // A mistyped DATA_DIR must not quietly create an empty database; only migrate creates one.
  if (config.database.kind === 'sqlite' && parsed.name !== 'migrate' && !fs.existsSync(config.database.file)) {
    return fail(`No database at ${config.database.file} (check DATA_DIR or DATABASE_URL).`);
  }
  const database = openDatabase(config.database);
  try {
    const result = await commands[parsed.name]({ config, database }, parsed.argument);
    process.stdout.write(parsed.json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommandFailure) return fail(error.message);
    // Unexpected (database unreachable, disk full): the message only, no stack trace.
    return fail(`Failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
