/** A problem with an input file as a whole: the import stops before writing anything (exit 2). */
export class ImportFileError extends Error {
  override name = 'ImportFileError';
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
  }
}
