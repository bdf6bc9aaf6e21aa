interface NavigatorLike {
  userAgent: string;
  userAgentData?: { platform?: string };
}

const browsers: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const platforms: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

/**
 * A name for a new passkey that tells the person which device made it ("Chrome on macOS"); the
 * browser does not say which authenticator it used, so this is the best the page can know.
 */
export function passkeyDeviceName(nav: NavigatorLike): string {
  const ua = nav.userAgent;
  const browser = browsers.find(([pattern]) => pattern.test(ua))?.[1];
  const platform = nav.userAgentData?.platform || platforms.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && platform) return `${browser} on ${platform}`;
  return browser ?? platform ?? 'Passkey';
}
