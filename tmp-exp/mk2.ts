import sharp from 'sharp';
await sharp({ create: { width: 6300, height: 6300, channels: 3, background: { r: 10, g: 200, b: 30 } } }).png().toFile('/tmp/up/rgb40.png');
await sharp({ create: { width: 5470, height: 5470, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } }).png().toFile('/tmp/up/rgba30.png');
