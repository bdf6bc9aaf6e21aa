import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { noisyAlphaStripesPng } from '../../../test/support/testImages.ts';
import { processImage } from './imageProcessing.ts';

// What processImage makes of a transparent picture whose copies are large (decision 0540). The
// memory itself is measured on the production build: test/reliability/uploadMemory.
describe('copies of a transparent picture', () => {
  it('are PNG, never WebP, above 1.5 megapixels, and never larger than the main PNG', async () => {
    // 1700×2400: the 960-pixel copy has 1.3 MP, the 1600-pixel one 3.6 MP.
    const processed = await processImage(await noisyAlphaStripesPng(1700, 2400), 'image/png');
    expect(processed.main.contentType).toBe('image/png');
    const byWidth = new Map(processed.variants.map((variant) => [variant.name, variant]));
    const large = byWidth.get('1600w')!;
    expect(large.contentType).toBe('image/png');
    expect(large.bytes.length).toBeLessThanOrEqual(processed.main.bytes.length);
    expect((await sharp(large.bytes).metadata()).hasAlpha).toBe(true);
    // Below the cap, libwebp still encodes it, and wins on this picture.
    expect(byWidth.get('960w')!.contentType).toBe('image/webp');
  }, 60_000);
});
