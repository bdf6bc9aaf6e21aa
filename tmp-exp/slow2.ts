import sharp from 'sharp';
import { processImage } from '../src/server/images/imageProcessing.ts';
const w = 6300, h = 6300;
let t = performance.now();
const png = await sharp({ create: { width: w, height: h, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } }).png({ compressionLevel: 9 }).toBuffer();
console.log('made', png.length, performance.now() - t);
for (let i = 0; i < 2; i++) {
t = performance.now();
await processImage(png, 'image/png');
console.log('processed ms', performance.now() - t);
}
console.log(process.resourceUsage().maxRSS / 1024);
