import sharp from 'sharp';

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;

/**
 * A 12-megapixel stand-in for a phone photo: smooth light and shade with fine grain, so it
 * encodes to a few MB of JPEG as real photos do (a flat colour would be a few KB).
 */
export async function phonePhoto(width = PHOTO_WIDTH, height = PHOTO_HEIGHT): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .blur(0.6)
    .png({ compressionLevel: 1 })
    .toBuffer();
  const shade = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8a04a"/>' +
      '<stop offset="1" stop-color="#2a4d6e"/></linearGradient></defs>' +
      `<rect width="100%" height="100%" fill="url(#g)"/><circle cx="2900" cy="800" r="420" fill="#fbe7b5"/></svg>`,
  );
  return sharp(shade)
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 88 })
    .toBuffer();
}
