import fs from 'node:fs';
import { processImage } from '../src/server/images/imageProcessing.ts';
const bytes = fs.readFileSync(process.argv[2]!);
const t = performance.now();
await processImage(bytes, process.argv[3] as 'image/png' ?? 'image/png');
console.log(process.argv[2], 'ms', Math.round(performance.now() - t), 'VmHWM MB', Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024);
