import { fork } from 'node:child_process';
import fs from 'node:fs';
const c = fork('src/server/images/imageWorker.ts', [], { execArgv: ['--max-old-space-size=64', '--max-semi-space-size=1', '--lite-mode'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
c.on('message', (m: any) => console.log('msg', m.ok, m.rejected));
c.on('exit', (code, sig) => console.log('exit', code, sig));
c.send({ bytes: fs.readFileSync('/tmp/up/photo.jpg'), declaredType: 'image/jpeg' });
