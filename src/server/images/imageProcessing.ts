import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { IMAGE_MAX_SIDE, imageFileName, variantFileName, variantWidths } from '../../shared/imageUrls.ts';
import { countJpegScans } from './jpegScans.ts';

/** docs/product.md (Rules): larger images are refused (413) before any pixel is decoded. */
export const IMAGE_MAX_PIXELS = 40_000_000;
/**
 * The picture's pixels at the depth it decodes to (width x height x channels x bytes per
 * sample): 40 megapixels of 8-bit RGBA. A 16-bit or floating-point file of the same size would
 * decode to two or four times as much, so its pixel limit shrinks with its depth.
 */
export const IMAGE_MAX_DECODED_BYTES = IMAGE_MAX_PIXELS * 4;
/**
 * Scans of a JPEG. Encoders write 1 (baseline) to about 15 (progressive, mozjpeg's script);
 * each scan is a full pass over the picture's blocks, and a hostile file repeats one thousands
 * of times (docs/security.md).
 */
export const JPEG_MAX_SCANS = 100;
/** Frames of an animated GIF, WebP or AVIF: only the first is kept, but the header lists them all. */
export const IMAGE_MAX_FRAMES = 1000;

const BYTES_PER_SAMPLE: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/** The upload types the API accepts (docs/product.md, Rules), and the format sharp must find in the bytes. */
export const ACCEPTED_IMAGE_TYPES = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'heif',
  'image/gif': 'gif',
} as const;
export type AcceptedImageType = keyof typeof ACCEPTED_IMAGE_TYPES;

// libvips caches operations for reuse: for one-off uploads it only holds memory. One thread per
// pipeline: uploads run side by side in libuv's pool (bounded by the caller), each on one core.
sharp.cache(false);
sharp.concurrency(1);

// Seconds after which libvips abandons a pipeline (it checks between regions of output; the
// worker process running it is killed on a wall-clock limit besides: imageWorkers.ts).
const PIPELINE_TIMEOUT_SECONDS = 60;
const JPEG_OPTIONS = { quality: 82, mozjpeg: true } as const;
const WEBP_OPTIONS = { quality: 80 } as const;
/**
 * With alpha, libwebp also runs a lossless coder over the alpha plane, whose memory grows with
 * how noisy the picture is; at effort 3 instead of the default 4 a 1600-pixel copy of random
 * stripes peaks about 25 MB lower, and the files measured came out within about 1 % (decision 0485).
 */
const WEBP_ALPHA_OPTIONS = { ...WEBP_OPTIONS, effort: 3 } as const;
/**
 * The most pixels a copy with alpha is encoded as WebP at. libwebp's memory for such a copy grows
 * with its pixels and with how noisy they are, so no picture's content can be ruled out; capping
 * the pixels bounds it (decision 0540). Larger transparent copies are PNG only: PNG's encoder
 * works a row at a time. 1.5 MP is a 1600-pixel-wide copy of a 16:10 picture or wider.
 */
const WEBP_ALPHA_MAX_PIXELS = 1_500_000;

/** An upload refused for what it is: the status (413 or 415) and a sentence for the person. */
export class ImageRejectedError extends Error {
  override name = 'ImageRejectedError';
  readonly status: 413 | 415;
  constructor(status: 413 | 415, message: string) {
    super(message);
    this.status = status;
  }
}

/** One file of a processed image, as it is stored and served. */
export interface ImageFile {
  /** The last segment of its URL (imageUrls.ts). */
  name: string;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  bytes: Buffer;
}

export interface ProcessedImage {
  width: number;
  height: number;
  /** The file at the image's URL (JPEG, or PNG when it has transparency): what any client can read. */
  main: ImageFile;
  /** One copy per width of variantWidths(width), each WebP or the main format, whichever is smaller. */
  variants: ImageFile[];
}

/**
 * Reads only the header: the format must be the declared one and the picture at most
 * IMAGE_MAX_PIXELS, so a small file claiming 20000x20000 pixels is refused before decoding.
 */
export async function inspectImage(bytes: Buffer, declaredType: AcceptedImageType): Promise<InspectedImage> {
  let metadata: Metadata;
  try {
    // The pixel limit is checked below from the header, with a message of its own.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw notDecodable(declaredType);
  }
  const expected = ACCEPTED_IMAGE_TYPES[declaredType];
  const avifMismatch = declaredType === 'image/avif' && metadata.compression !== 'av1';
  if (metadata.format !== expected || avifMismatch || !(metadata.width > 0 && metadata.height > 0)) {
    throw notDecodable(declaredType);
  }
  if (metadata.width * metadata.height > IMAGE_MAX_PIXELS) {
    throw new ImageRejectedError(
      413,
      `The image is ${metadata.width}×${metadata.height} pixels; at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels are accepted.`,
    );
  }
  const bytesPerPixel = (metadata.channels ?? 4) * (BYTES_PER_SAMPLE[metadata.depth ?? 'uchar'] ?? 8);
  if (metadata.width * metadata.height * bytesPerPixel > IMAGE_MAX_DECODED_BYTES) {
    const megapixels = Math.floor(IMAGE_MAX_DECODED_BYTES / bytesPerPixel / 1_000_000);
    throw new ImageRejectedError(
      413,
      `The image is ${metadata.width}×${metadata.height} pixels at ${bytesPerPixel} bytes a pixel; at that depth at most ${megapixels} megapixels are accepted.`,
    );
  }
  if ((metadata.pages ?? 1) > IMAGE_MAX_FRAMES) {
    throw new ImageRejectedError(
      413,
      `The image has ${metadata.pages} frames; at most ${IMAGE_MAX_FRAMES} are accepted.`,
    );
  }
  if (declaredType === 'image/jpeg') {
    const scans = countJpegScans(bytes, JPEG_MAX_SCANS);
    if (scans > JPEG_MAX_SCANS) {
      throw new ImageRejectedError(
        415,
        `The JPEG repeats its scans more than ${JPEG_MAX_SCANS} times; save it again from an image editor.`,
      );
    }
  }
  return { decodedBytes: metadata.width * metadata.height * bytesPerPixel };
}

/** What the header says decoding will cost. */
export interface InspectedImage {
  /** width x height x channels x bytes per sample: the picture as it decodes, before any resize. */
  decodedBytes: number;
}

export function notDecodable(declaredType: AcceptedImageType): ImageRejectedError {
  return new ImageRejectedError(
    415,
    `The body is not a readable ${declaredType.slice('image/'.length).toUpperCase()} image.`,
  );
}

/**
 * Decodes an upload that passed inspectImage and re-encodes it: orientation applied, no
 * metadata block kept (sharp writes none unless asked: no EXIF, GPS, XMP, IPTC or ICC), long
 * side at most IMAGE_MAX_SIDE, and the resized copies for srcset. Runs in an image worker process
 * (imageWorker.ts), one job per process. Animated images keep their first frame.
 */
export async function processImage(bytes: Buffer, declaredType: AcceptedImageType): Promise<ProcessedImage> {
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error', autoOrient: true })
      .timeout({ seconds: PIPELINE_TIMEOUT_SECONDS })
      .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw notDecodable(declaredType);
  }
  const { width, height } = pixels.info;
  let channels = pixels.info.channels as 1 | 2 | 3 | 4;
  let decoded: Buffer | undefined = pixels.data;
  const raw = () =>
    sharp(decoded!, { raw: { width, height, channels } }).timeout({ seconds: PIPELINE_TIMEOUT_SECONDS });

  // An alpha channel that hides nothing is dropped: the picture is then a (much smaller) JPEG.
  let keepsAlpha = channels === 2 || channels === 4;
  if (keepsAlpha && (await raw().stats()).isOpaque) {
    pixels = await raw().removeAlpha().raw().toBuffer({ resolveWithObject: true });
    decoded = pixels.data;
    channels = pixels.info.channels as 1 | 3;
    keepsAlpha = false;
  }

  const encodeMain = (image: Sharp) =>
    keepsAlpha ? image.png({ compressionLevel: 8, adaptiveFiltering: true }) : image.jpeg(JPEG_OPTIONS);
  const mainType = keepsAlpha ? 'image/png' : 'image/jpeg';
  const main: ImageFile = {
    name: imageFileName(width, height, keepsAlpha ? 'png' : 'jpg'),
    contentType: mainType,
    bytes: await encodeMain(raw()).toBuffer(),
  };

  const variants: ImageFile[] = [];
  let smallerWebpBytes = 0;
  for (const variantWidth of variantWidths(width)) {
    const fullWidth = variantWidth === width;
    const name = variantFileName(variantWidth);
    const variantPixels = variantWidth * Math.max(1, Math.round((height * variantWidth) / width));
    if (keepsAlpha && variantPixels > WEBP_ALPHA_MAX_PIXELS) {
      // Too many pixels for a WebP with alpha within the memory budget: a PNG, and the main one
      // when it is smaller (resampling noise that deflate found in the rows above can make a copy
      // many times the original's size, and the server holds every copy until it is stored).
      const png = fullWidth ? main.bytes : await encodeMain(raw().resize({ width: variantWidth })).toBuffer();
      variants.push({ name, contentType: mainType, bytes: png.length < main.bytes.length ? png : main.bytes });
      continue;
    }
    if (fullWidth && keepsAlpha && main.bytes.length <= smallerWebpBytes) {
      // The full-width PNG is already no larger than the WebP one size down, which a WebP of
      // more pixels does not beat: the full-width copy is the PNG, without running libwebp's
      // alpha encode, whose memory grows with how noisy the picture is (decision 0485).
      variants.push({ name, contentType: mainType, bytes: main.bytes });
      continue;
    }
    if (fullWidth && keepsAlpha) releaseDecodedPixels();
    const resized = () => {
      if (!fullWidth) return raw().resize({ width: variantWidth });
      return keepsAlpha ? fromMain() : raw();
    };
    const webp = await resized()
      .webp(keepsAlpha ? WEBP_ALPHA_OPTIONS : WEBP_OPTIONS)
      .toBuffer();
    smallerWebpBytes = webp.length;
    const fallback = fullWidth ? main.bytes : await encodeMain(resized()).toBuffer();
    variants.push(
      webp.length < fallback.length
        ? { name, contentType: 'image/webp', bytes: webp }
        : { name, contentType: mainType, bytes: fallback },
    );
  }
  return { width, height, main, variants };

  /**
   * The full-width copy comes last, and its WebP encode is a worker's largest moment: libvips
   * copies the frame and libwebp adds its colour planes and, for alpha, a lossless coder with a
   * hash table per pixel (decision 0480). With alpha the main file is a lossless PNG of the very
   * same pixels, so that encode reads them back from it (the same bytes come out) and the decoded
   * copy, 23 MB at 2400x2400 RGBA, is freed first: a worker runs one upload and exits, and the
   * collection that frees the Buffer's memory is asked for here rather than left to chance.
   */
  function releaseDecodedPixels() {
    decoded = undefined;
    pixels.data = Buffer.alloc(0);
    globalThis.gc?.();
  }
  function fromMain() {
    return sharp(main.bytes, { failOn: 'error' }).timeout({ seconds: PIPELINE_TIMEOUT_SECONDS });
  }
}
