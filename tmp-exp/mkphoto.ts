import fs from 'node:fs';
import { phonePhoto } from '../bench/phonePhoto.ts';
fs.writeFileSync('/tmp/up/photo.jpg', await phonePhoto());
