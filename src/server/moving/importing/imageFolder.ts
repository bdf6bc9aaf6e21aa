import fs from 'node:fs';
import path from 'node:path';

/**
 * A file under `root` for the part of an image URL after `marker` (`/content/images/` for
 * Ghost, `/wp-content/uploads/` for WordPress), or null: a path that would leave the folder
 * (`..`, an absolute path, a link out of it) or names no regular file finds nothing.
 */
export function fileInFolder(root: string, src: string, marker: string): string | null {
  const at = src.indexOf(marker);
  if (at < 0) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(src.slice(at + marker.length).split(/[?#]/)[0]!);
  } catch {
    return null;
  }
  if (relative === '' || relative.includes('\0')) return null;
  const base = fs.realpathSync(root);
  const candidate = path.resolve(base, relative);
  if (!candidate.startsWith(base + path.sep)) return null;
  try {
    const real = fs.realpathSync(candidate);
    if (!real.startsWith(base + path.sep) || !fs.statSync(real).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

/** Checks an --images / --uploads folder before anything is read. */
export function checkFolder(root: string): string | null {
  try {
    return fs.statSync(root).isDirectory() ? null : 'is not a folder';
  } catch {
    return 'cannot be read';
  }
}
