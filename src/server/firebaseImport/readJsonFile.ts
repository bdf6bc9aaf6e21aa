import fs from 'node:fs/promises';
import { ImportFileError } from './importFileError.ts';

export async function readText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ImportFileError(file, code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'error'})`);
  }
}

export async function readJsonFile(file: string): Promise<unknown> {
  const text = await readText(file);
  try {
    return JSON.parse(text);
  } catch {
    throw new ImportFileError(file, 'not valid JSON');
  }
}
