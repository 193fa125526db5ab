import { cleanup, configure, getConfig, prettyDOM } from '@testing-library/react';
/// <reference types="node" />
import * as webStreams from 'node:stream/web';
import { afterEach, beforeEach, vi } from 'vitest';

// In `npm test` the web project runs in vmThreads (apps/web/vitest.config.ts): each file's jsdom
// window is the whole global scope, and jsdom has no streams. Browsers do; the APK reader uses them.
// (In the fast loop's threads the window's globals sit beside Node's, which has them.)
for (const name of [
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'DecompressionStream',
  'CompressionStream',
] as const)
  (globalThis as Record<string, unknown>)[name] ??= webStreams[name];

// sonner puts its 97 style rules in <head> when the first toast loads it. jsdom matches every rule
// of every sheet against an element whenever a style is asked for, as each `getByRole` with a name
// does for every node it reads: with sonner's sheet in, a file that showed a toast spent about twice
// as long there. The rules only place and animate toasts; what tests find does not depend on them.
const appendChild = HTMLStyleElement.prototype.appendChild;
HTMLStyleElement.prototype.appendChild = function <T extends Node>(this: HTMLStyleElement, node: T): T {
  if (node instanceof Text && node.data.startsWith('[data-sonner-toaster]')) return node;
  return appendChild.call(this, node) as T;
};

// In `npm run test:fast` a worker keeps the modules it loaded from one file to the next; the app's own
// (its stores, the session, the lazily loaded toasts) start again for every file, as they would in
// a browser tab just opened. Dependencies are kept: React, Testing Library and jsdom are the same
// for every file, and loading them again is most of what a fresh start costs.
vi.resetModules();

// Lazy routes compile on first use in a cold test run: give findBy/waitFor room.
configure({ asyncUtilTimeout: 10_000, getElementError: elementError });

/**
 * Testing Library's own error, without printing the whole document into every failed try of a
 * findBy or waitFor (each poll printed it: about 3 % of the web project's time). A poll runs with
 * its expensive diagnostics off; when it times out, waitFor asks for this error again outside the
 * poll, so a failing test still shows the document, once.
 */
function elementError(message: string | null, container: Element) {
  const polling = (getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })
    ._disableExpensiveErrorDiagnostics;
  const parts = polling
    ? [message]
    : [message, `Ignored nodes: comments, script, style\n${prettyDOM(container)}`];
  const error = new Error(parts.filter(Boolean).join('\n\n'));
  error.name = 'TestingLibraryElementError';
  return error;
}

beforeEach(() => {
  document.title = '';
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
