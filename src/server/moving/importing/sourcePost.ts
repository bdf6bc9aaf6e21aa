/** A post as an importer reads it from another blog's export, before it becomes an article. */
export interface SourcePost {
  /** Its id in the old blog: recorded, so a re-run skips it. */
  sourceId: string;
  slug: string | null;
  title: string;
  html: string;
  /** The excerpt the old blog kept apart from the text, if any. */
  excerpt: string | null;
  status: 'published' | 'draft';
  /** Epoch milliseconds: its publication date, else its creation date. */
  date: number;
  tags: string[];
  /** The author's key in `SourceExport.authors`, null when the export names none. */
  authorKey: string | null;
  /** The cover as the export spells it (a URL, possibly with the old blog's placeholder origin). */
  featureImage: string | null;
}

/** An author of the old blog: becomes an account without a password. */
export interface SourceAuthor {
  key: string;
  email: string | null;
  name: string | null;
}

export interface Skip {
  id: string;
  reason: string;
}

/** A post as the first pass over a file saw it: enough to plan the import before any text is read. */
export interface PlannedPost {
  sourceId: string;
  slug: string | null;
  /** For the lines naming a skipped post: at most 60 characters. */
  title: string;
  authorKey: string | null;
}

/**
 * What an importer's reader found in a file on a first pass that read all of it (so a file
 * broken anywhere is refused before anything is written): the authors, the posts it will
 * bring without their text, and what it left out. `posts()` reads the file again and yields
 * the planned posts with their text one at a time, so memory follows one post, not the file.
 */
export interface SourceExport {
  source: 'ghost' | 'wordpress';
  /** The old blog's address (links to it are links to its posts), null when the export has none. */
  siteUrl: string | null;
  authors: SourceAuthor[];
  /** The posts `posts()` yields, in file order. */
  planned: PlannedPost[];
  /** Pages (not posts): left out and counted. */
  pages: number;
  /** Posts the reader could not take (no title, a status Inkwell has no counterpart for). */
  skipped: Skip[];
  /** The second pass: each planned post, with its text, in file order. */
  posts(): AsyncIterable<SourcePost>;
}

/** How an importer finds the old blog's files: an image URL of the export to a file on disk, or null. */
export type ImageFiles = (src: string) => string | null;
