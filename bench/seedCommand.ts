import path from 'node:path';
import { parseArgs } from 'node:util';
import { seedDatabase } from './seed.ts';

// npm run seed -- --articles 100000 --data-dir DIR [--authors 4] [--image-origin http://localhost:3000]
const { values } = parseArgs({
  options: {
    articles: { type: 'string', default: '100' },
    'data-dir': { type: 'string', default: './data' },
    authors: { type: 'string', default: '4' },
    'image-origin': { type: 'string' },
  },
});
const articles = Number(values.articles);
const authors = Number(values.authors);
if (!Number.isSafeInteger(articles) || articles < 1 || !Number.isSafeInteger(authors) || authors < 1) {
  console.error('Usage: npm run seed -- --articles N --data-dir DIR [--authors N] [--image-origin URL]');
  process.exit(2);
}
const dataDir = path.resolve(values['data-dir']);
const result = await seedDatabase({ dataDir, articles, authors, imageOrigin: values['image-origin'] });
console.log(
  `Seeded ${articles} articles by ${authors} authors in ${result.seconds.toFixed(1)} s (${dataDir}/seed.json has their sign-ins)`,
);
