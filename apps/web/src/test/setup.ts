import { cleanup, configure } from '@testing-library/react';
/// <reference types="node" />
import * as webStreams from 'node:stream/web';
import { afterEach, beforeEach } from 'vitest';

// The web project runs in vmThreads (vitest.fast.config.ts): each file's jsdom window is the whole
// global scope, and jsdom has no streams. Browsers do; the APK reader uses them.
for (const name of [
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'DecompressionStream',
  'CompressionStream',
] as const)
  (globalThis as Record<string, unknown>)[name] ??= webStreams[name];

// Lazy routes compile on first use in a cold test run: give findBy/waitFor room.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  document.title = '';
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
