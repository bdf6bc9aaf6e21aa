/**
 * Caps V8's young generation for the server process: under load it grew to 64 MB of a
 * ~220 MB resident set (bench/README.md), though what a request allocates dies within the
 * request. The cap is a start-up flag only (v8.setFlagsFromString at run time does not
 * resize an existing heap), so main.ts restarts itself once with it (restartWithHeapFlags.ts).
 */
export const SEMI_SPACE_MB = 8;

const FLAG = '--max-semi-space-size';

/** Whether the operator gave a semi-space size already, on the command line or in NODE_OPTIONS. */
export function hasSemiSpaceFlag(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const given = (argument: string) => argument === FLAG || argument.startsWith(`${FLAG}=`);
  return execArgv.some(given) || (nodeOptions ?? '').split(/\s+/).some(given);
}

/** The argument vector of the same command with the flag added, or undefined when it is there already. */
export function argumentsWithSemiSpaceFlag(
  execPath: string,
  execArgv: readonly string[],
  argv: readonly string[],
  nodeOptions: string | undefined,
): string[] | undefined {
  if (hasSemiSpaceFlag(execArgv, nodeOptions)) return undefined;
  return [execPath, `${FLAG}=${SEMI_SPACE_MB}`, ...execArgv, ...argv.slice(1)];
}
