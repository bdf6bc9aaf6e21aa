import type { SourceExport } from '../importing/sourcePost.ts';

export async function readWxrFile(file: string): Promise<SourceExport> {
  throw new Error(`${file}: not yet`);
}
