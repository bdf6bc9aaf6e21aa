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

/** What an importer's reader found in a file: posts, authors, and what it left out. */
export interface SourceExport {
  source: 'ghost' | 'wordpress';
  /** The old blog's address (links to it are links to its posts), null when the export has none. */
  siteUrl: string | null;
  authors: SourceAuthor[];
  posts: SourcePost[];
  /** Pages (not posts): left out and counted. */
  pages: number;
  /** Posts the reader could not take (no title, a status Inkwell has no counterpart for). */
  skipped: Skip[];
}

/** How an importer finds the old blog's files: an image URL of the export to a file on disk, or null. */
export type ImageFiles = (src: string) => string | null;
