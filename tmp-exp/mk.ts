import sharp from 'sharp';
import fs from 'node:fs';
await sharp({ create: { width: 6300, height: 6300, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } }).png().toFile('/tmp/up/rgba40.png');
await sharp({ create: { width: 4470, height: 4470, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } }).toColourspace('rgb16').png().toFile('/tmp/up/rgba16.png');
console.log(fs.statSync('/tmp/up/rgba40.png').size, fs.statSync('/tmp/up/rgba16.png').size, await sharp('/tmp/up/rgba16.png').metadata().then(m => [m.depth, m.channels, m.width]));
