/** Where a remote actor lives (its host name, lower-cased): what a domain block matches. */
export const domainOf = (url: URL | string) => new URL(url).hostname.toLowerCase();
