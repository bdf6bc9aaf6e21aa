import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Globals per folder, as in the tsconfig projects (tsconfig.json): the web app sees the browser's,
// the server and tooling Node's, shared code neither (URL, which both provide, aside).
const browserTests = ['src/web/**/*.test.{ts,tsx}', 'e2e/**/*.ts'];
// Type-only global names (of @types/node, of the DOM) that no-undef cannot tell from values.
const browserTypes = { RequestInit: 'readonly' };
const nodeTypes = { NodeJS: 'readonly', RequestInit: 'readonly' };

// src/server's floors, ground first (issue 41): each may import only what stands before it in
// this list, so no import runs back up and no circle can form between them. The one exception
// is db/schema.ts, which composes every feature's table types into the database's. A folder or
// file not listed (a new one) is free until it is placed here. `npx eslint src/server` checks it.
const serverFloors = [
  'providersConfig.ts',
  'config.ts',
  'http/',
  'mail/',
  'db/',
  'settings/',
  'web/',
  'rateLimit/',
  'health/',
  'metrics/',
  'audit/',
  'unsubscribe/',
  'migrateCommand.ts',
  'identity/',
  'images/',
  'passkeys/',
  'federation/',
  'reports/',
  'articles/',
  'authors/',
  'firebaseImport/',
  'publishing/',
  'roles/',
  'newsletters/',
  'comments/',
  'moving/',
  'services.ts',
  'admin/',
  'app.ts',
  'main.ts',
];
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Relative specifiers only: a file `depth` folders inside its floor reaches src/server with
// depth + 1 `../` (a top-level file with `./`), so each depth gets its own pattern.
const serverFloorZones = serverFloors.flatMap((floor, index) => {
  const above = serverFloors.slice(index + 1);
  if (above.length === 0) return [];
  const names = above.map((name) => (name.endsWith('/') ? `${escapeRegex(name)}` : `${escapeRegex(name)}$`)).join('|');
  const message = `src/server/${floor} stands below ${above.length === 1 ? above[0] : 'the folders after it'} in eslint.config.js' serverFloors: move what both need down, or hand it in from services.ts.`;
  const depths = floor.endsWith('/') ? [0, 1, 2, 3] : [-1];
  return depths.map((depth) => ({
    files: [floor.endsWith('/') ? `src/server/${floor}${'*/'.repeat(depth)}*.ts` : `src/server/${floor}`],
    ignores: ['src/server/**/*.test.ts', 'src/server/db/schema.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `^${depth < 0 ? '\\./' : '(\\.\\./){' + (depth + 1) + '}'}(${names})`, message }] },
      ],
    },
  }));
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // typescript-eslint turns this off for TypeScript; on, it makes each folder's globals below
      // a rule, so a Node global in the web app (or either in shared code) fails lint too.
      'no-undef': 'error',
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    ignores: ['src/shared/**/*.test.ts'],
    languageOptions: { globals: { URL: 'readonly' } },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: browserTests,
    languageOptions: { globals: { ...globals.browser, ...browserTypes } },
  },
  {
    files: [
      'src/server/**/*.ts',
      'src/shared/**/*.test.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.ts',
      '*.{ts,js}',
    ],
    languageOptions: { globals: { ...globals.node, ...nodeTypes } },
  },
  {
    files: browserTests,
    languageOptions: { globals: { ...globals.node, ...nodeTypes, ...globals.browser } },
  },
  // Before the migrations' and http/'s zones, whose stricter rules replace these for their files.
  ...serverFloorZones,
  {
    // A migration is frozen in time: it never imports application code, which may change
    // after it ran (decision 0220). Libraries and its own folder (frozen copies) only.
    files: ['src/server/db/migrations/**/*.ts'],
    ignores: ['src/server/db/migrations/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./|/|src/)',
              message:
                'A migration never imports application code: copy what it needs into migrations/frozen/ (decision 0220).',
            },
          ],
        },
      ],
    },
  },
  {
    // The HTTP plumbing every feature uses knows no feature (docs/architecture.md): features
    // import it, and what it must do for one (identity's error format, its token check) is
    // handed to it by app.ts and services.ts. Shared code and its own folder only.
    files: ['src/server/http/**/*.ts'],
    ignores: ['src/server/http/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./shared/)',
              message:
                'src/server/http/ imports no feature or other server folder: features import it, app.ts and services.ts hand it what it needs.',
            },
          ],
        },
      ],
    },
  },
  {
    // src/web's folders form a tree (decision 0760): the ground floor (api/: every call of the
    // server; auth/: the session; served/: what the server put into the page) imports no other
    // web folder, and components/ (shared UI pieces) none but those: no feature folder.
    files: ['src/web/{api,auth,served}/**/*.{ts,tsx}'],
    ignores: browserTests,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!api/|auth/|served/|\\.\\./shared/)',
              message:
                "api/, auth/ and served/ are src/web's ground floor: they import no other web folder (decision 0760).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/components/**/*.{ts,tsx}'],
    ignores: browserTests,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!api/|auth/|served/|\\.\\./shared/)',
              message:
                'components/ holds UI pieces shared by features: it imports no feature folder (decision 0760). Move the piece here, or pass it in.',
            },
          ],
        },
      ],
    },
  },
  {
    // Every call of the server goes through api/ (callApi and its neighbours) or, for sign-in, auth/.
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: [...browserTests, 'src/web/{api,auth}/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the server through src/web/api/ (decision 0760).' },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
