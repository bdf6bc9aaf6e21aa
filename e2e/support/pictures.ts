import type { Page } from '@playwright/test';

/** Article pictures for browser tests: any URL under this origin is answered by the test itself. */
export const PICTURE_ORIGIN = 'https://pictures.example.test';

const HUES = [210, 160, 30, 280, 340, 100];

/** Serves a soft gradient SVG for every picture URL, so screenshots show real images offline. */
export async function servePictures(page: Page) {
  await page.route(`${PICTURE_ORIGIN}/**`, (route) => {
    const index = Number(/(\d+)/.exec(new URL(route.request().url()).pathname)?.[1] ?? 0);
    const hue = HUES[index % HUES.length]!;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 90"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 62%)"/><stop offset="1" stop-color="hsl(${hue + 40} 65% 38%)"/></linearGradient></defs><rect width="160" height="90" fill="url(#g)"/><circle cx="120" cy="28" r="12" fill="hsl(${hue} 90% 92%)" opacity=".8"/><path d="M0 90 L55 42 L90 70 L115 52 L160 90Z" fill="hsl(${hue + 40} 50% 22%)" opacity=".55"/></svg>`;
    return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: svg });
  });
}
