/**
 * The web-platform globals shared code may use because Node and every browser provide them
 * (the WHATWG URL parser), declared for shared code's own type check (tsconfig.shared.json),
 * which loads neither Node's types nor the DOM's. Only the members shared code uses.
 */
declare class URL {
  static canParse(url: string, base?: string): boolean;
  constructor(url: string, base?: string);
  readonly hash: string;
  readonly hostname: string;
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly protocol: string;
  readonly search: string;
}
