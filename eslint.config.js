import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const featuresDir = './apps/web/src/features';
const features = existsSync(featuresDir) ? readdirSync(featuresDir) : [];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/migrations/**',
      'test-results/**',
      '.test-output/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Import cycles anywhere in our code. Every relative import names its file with its extension,
    // so the plain resolver finds it; `@app/contract/*` resolves through its package.json exports.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: {
      // ignoreExternal: node_modules is not ours to untangle, and walking it doubles the lint time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // A source file says one thing; past 300 lines it is saying several (issue 19). Tests are exempt:
    // a table of cases reads better whole.
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.spec.ts', '**/*.hardening.test.ts'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    // lib/'s cross-cutting tests (access control, strict input) drive the whole app, modules included.
    ignores: ['**/*.test.ts'],
    rules: {
      // lib/ is the API's shared layer: modules build on it, never the other way round.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/api/src/lib',
              from: './apps/api/src/modules',
              message: 'lib/ must not import a module: move the shared piece into src/lib.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // One-way imports: shared → features → app; a feature never imports another feature.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((name) => ({
              target: `${featuresDir}/${name}`,
              from: featuresDir,
              except: [`./${name}`],
              message:
                'A feature never imports another feature: move the shared part to src/components or src/lib.',
            })),
            {
              target: ['./apps/web/src/components', './apps/web/src/lib'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'Shared code must not import features or the app.',
            },
            {
              target: featuresDir,
              from: './apps/web/src/app',
              message: 'Features must not import the app layer.',
            },
          ],
        },
      ],
      // react-router's Link brings its prefetch code onto the sign-in page (decision 041).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              importNames: ['Link', 'NavLink'],
              message: 'Use Link from src/components/link.tsx: it keeps the first screen within its budget.',
            },
          ],
        },
      ],
    },
  },
);
