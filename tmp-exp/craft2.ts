import sharp from 'sharp';
function segments(jpeg: Buffer) {
  const out: { marker: number; start: number; end: number }[] = [];
  let i = 2;
  while (i < jpeg.length) {
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
const moz = process.argv[5] === 'moz';
const noise = await sharp({ create: { width: w, height: h, channels: 3, background: 'gray', ...(process.argv[6] === 'plain' ? {} : { noise: { type: 'gaussian', mean: 128, sigma: 60 } }) } }).jpeg({ progressive: true, quality: 90, mozjpeg: moz }).toBuffer();
const segs = segments(noise);
for (const s of segs) if (s.marker === 0xda) { const ns = noise[s.start + 4]!; const p = s.start + 5 + ns * 2; console.log('SOS ns', ns, 'Ss', noise[p], 'Se', noise[p + 1], 'AhAl', noise[p + 2]!.toString(16), 'len', s.end - s.start); }
const dc = segs.filter((s) => s.marker === 0xda && noise[s.start + 5 + noise[s.start + 4]! * 2] === 0);
console.log('dc scans', dc.length);
const body = Buffer.concat(dc.map((s) => noise.subarray(s.start, s.end)));
const eoi = segs.at(-1)!;
const crafted = Buffer.concat([noise.subarray(0, eoi.start), ...Array(reps).fill(body), noise.subarray(eoi.start)]);
console.log('crafted', crafted.length);
const t = performance.now();
try { const r = await sharp(crafted, { failOn: 'error' }).resize(2400, 2400, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true }); console.log(r.info.width); } catch (e) { console.log('err', (e as Error).message); }
console.log('ms', performance.now() - t);
