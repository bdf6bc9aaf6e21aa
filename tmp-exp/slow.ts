import sharp from 'sharp';
import { processImage } from '../src/server/images/imageProcessing.ts';
const w = 6300, h = 6300;
let t = performance.now();
const jpeg = await sharp({ create: { width: w, height: h, channels: 3, background: 'gray', noise: { type: 'gaussian', mean: 128, sigma: 80 } } }).jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).toBuffer();
console.log('made', jpeg.length, performance.now() - t);
t = performance.now();
await processImage(jpeg, 'image/jpeg');
console.log('processed ms', performance.now() - t);
