import zlib from 'node:zlib';
import sharp from 'sharp';

/** Real images for upload tests, made with sharp: nothing is read from disk. */

const RED = { r: 220, g: 30, b: 30 };
const BLUE = { r: 30, g: 60, b: 220 };

/** A solid JPEG of the given size. */
export function plainJpeg(width: number, height: number, quality = 90): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 120, g: 160, b: 90 } } })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * A phone photo as phones write them: stored 600x300 with its left half red and right half blue,
 * EXIF orientation 6 (shown turned 90° clockwise: 300x600, red on top), a GPS position, the
 * camera's make, and an XMP packet.
 */
export async function phonePhoto(): Promise<Buffer> {
  const left = await sharp({ create: { width: 300, height: 300, channels: 3, background: RED } })
    .png()
    .toBuffer();
  return (
    sharp({ create: { width: 600, height: 300, channels: 3, background: BLUE } })
      .composite([{ input: left, left: 0, top: 0 }])
      .jpeg({ quality: 92 })
      .withExif({
        IFD0: { Orientation: '6', Make: 'InkwellTestPhone', Model: 'Secret Model 9' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '51/1 30/1 1234/100',
          GPSLongitudeRef: 'W',
          GPSLongitude: '0/1 7/1 3987/100',
        },
      })
      // libvips writes the orientation from its own field, not from the EXIF given above.
      .withMetadata({ orientation: 6 })
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
          '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>InkwellTestPerson</dc:creator>' +
          '</rdf:Description></rdf:RDF></x:xmpmeta>',
      )
      .toBuffer()
  );
}

/** A small PNG with transparency: a half-transparent square on a clear background. */
export async function transparentPng(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: { create: { width: width / 2, height: height / 2, channels: 4, background: { ...RED, alpha: 0.5 } } },
        left: width / 4,
        top: height / 4,
      },
    ])
    .png()
    .toBuffer();
}

/**
 * A decompression bomb: a valid 1x1 PNG whose header claims `width` x `height` pixels
 * (the header's checksum fixed so decoders believe it). A few dozen bytes.
 */
export async function pngClaimingSize(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: RED } })
      .png()
      .toBuffer(),
  );
  // Signature (8 bytes), then the IHDR chunk: length (4), type (4), width (4), height (4)...
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  const ihdrCrc = zlib.crc32(png.subarray(12, 29));
  png.writeUInt32BE(ihdrCrc, 29);
  return png;
}

/** The colour of one pixel of an encoded image. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return { r: data[offset]!, g: data[offset + 1]!, b: data[offset + 2]! };
}

export const isReddish = (pixel: { r: number; g: number; b: number }) => pixel.r > 150 && pixel.b < 100;
export const isBluish = (pixel: { r: number; g: number; b: number }) => pixel.b > 150 && pixel.r < 100;

/** True when an EXIF block (as sharp's metadata().exif gives it) points to a GPS directory (tag 0x8825). */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.indexOf('Exif\0\0') === 0 ? exif.subarray(6) : exif;
  const tag = tiff.subarray(0, 2).toString('latin1') === 'II' ? Buffer.from([0x25, 0x88]) : Buffer.from([0x88, 0x25]);
  return tiff.includes(tag);
}

/**
 * A hostile progressive JPEG (docs/security.md, Hostile image uploads): a plain picture of
 * `width` x `height` whose one AC scan is repeated `repeats` times before its end. Each copy is
 * a valid first scan (its successive-approximation bit set to 0, so libjpeg finds no
 * inconsistency and only keeps decoding): a few dozen bytes that make the decoder walk every
 * block of the picture again. At 6000x6000, about 3 ms of CPU a copy.
 */
export async function jpegRepeatingOneScan(repeats: number, width = 6000, height = 6000): Promise<Buffer> {
  const jpeg = await sharp({ create: { width, height, channels: 3, background: { r: 120, g: 160, b: 90 } } })
    .jpeg({ progressive: true, quality: 90 })
    .toBuffer();
  const segments = jpegSegments(jpeg);
  const scanHeader = (start: number) => start + 5 + jpeg[start + 4]! * 2; // after Ns component selectors
  const acFirstScan = segments.find(
    (s) => s.marker === 0xda && jpeg[scanHeader(s.start)]! >= 1 && jpeg[scanHeader(s.start) + 2]! >> 4 === 0,
  );
  if (!acFirstScan) throw new Error('sharp wrote no progressive AC first scan');
  const scan = Buffer.from(jpeg.subarray(acFirstScan.start, acFirstScan.end));
  scan[scanHeader(0) + 2] = 0; // Ah = 0, Al = 0
  const end = segments.at(-1)!.start; // EOI
  return Buffer.concat([jpeg.subarray(0, end), ...Array<Buffer>(repeats).fill(scan), jpeg.subarray(end)]);
}

/** The segments of a JPEG after SOI: marker, and where each starts and ends (a scan with its data). */
function jpegSegments(jpeg: Buffer): { marker: number; start: number; end: number }[] {
  const segments: { marker: number; start: number; end: number }[] = [];
  let at = 2;
  while (at < jpeg.length) {
    const marker = jpeg[at + 1]!;
    if (marker === 0xd9) {
      segments.push({ marker, start: at, end: at + 2 });
      break;
    }
    let end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (marker === 0xda) {
      // Entropy-coded data runs to the next marker other than FF 00 and restarts (FF D0-D7).
      while (!(jpeg[end] === 0xff && jpeg[end + 1] !== 0 && !(jpeg[end + 1]! >= 0xd0 && jpeg[end + 1]! <= 0xd7))) end++;
    }
    segments.push({ marker, start: at, end });
    at = end;
  }
  return segments;
}

/** A plain PNG of 16 bits per channel with alpha (8 bytes a pixel): small on disk, large decoded. */
export function deepPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } })
    .toColourspace('rgb16')
    .png()
    .toBuffer();
}

/** A plain PNG of 8 bits per channel with alpha. */
export function plainPngWithAlpha(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

/**
 * Random colour-and-alpha stripes, each row the one above moved a pixel: a PNG of about 166 KB
 * at 2400×2400 (deflate finds every row in the one above), as noisy as a picture gets for an
 * image encoder. The same pixels every run (a fixed linear congruential sequence).
 */
export function noisyAlphaStripesPng(width: number, height: number): Promise<Buffer> {
  let seed = 12345;
  const diagonal = Buffer.alloc((width + height) * 4);
  for (let i = 0; i < diagonal.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    diagonal[i] = seed >>> 24;
  }
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) diagonal.copy(pixels, y * width * 4, y * 4, (y + width) * 4);
  return sharp(pixels, { raw: { width, height, channels: 4 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}
