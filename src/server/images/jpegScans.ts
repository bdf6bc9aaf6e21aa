/**
 * Counts the scans (SOS segments) of a JPEG by walking its markers, without decoding anything.
 * Stops counting once `stopAfter` is passed, so a hostile file costs one pass over its bytes at most.
 *
 * Why: libjpeg decodes every scan it is given, and a progressive file may repeat one scan
 * thousands of times (libjpeg warns, it does not fail): each repeat walks every block of the
 * picture again, a few milliseconds each for a large one (docs/security.md, Hostile image uploads).
 */
export function countJpegScans(bytes: Buffer, stopAfter: number): number {
  let scans = 0;
  // After SOI (FF D8), segments follow: FF, marker, then (for most markers) a 2-byte length.
  let at = 2;
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) {
      // Entropy-coded data after a scan header: skip to the next marker that is not a stuffed
      // zero (FF 00), a restart marker (FF D0-D7) or fill (FF FF).
      at = bytes.indexOf(0xff, at + 1);
      if (at < 0) break;
      continue;
    }
    const marker = bytes[at + 1]!;
    if (marker === 0xff || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xd9) break; // EOI
    if (at + 3 >= bytes.length) break;
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xda) {
      scans += 1;
      if (scans > stopAfter) break;
    }
    at += 2 + length;
  }
  return scans;
}
