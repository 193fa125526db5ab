import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { PurgeCSS } from 'purgecss';

// In `vite dev` the API paths go to a locally running API (apps/api, PORT=3300); in production the
// API serves the built app on its own origin, so the client's base URL stays ''.
const api = { '/api': { target: 'http://localhost:3300', changeOrigin: true } };

/*
 * react-router's package points every bundler at its development build; the production build beside
 * it is the same code with the dev-only warnings switched off. The build uses that one, and lets
 * Rollup drop the components we never use (NavLink, Form, ScrollRestoration, ...): their
 * `X.displayName = '...'` lines and un-annotated forwardRef/createContext calls keep them alive.
 * Both only make unused code removable; tests and `vite dev` keep the package as it is.
 */
let routerRewrites = 0;
const reactRouterForProduction: Plugin = {
  name: 'react-router-for-production',
  apply: 'build',
  enforce: 'pre',
  buildStart() {
    routerRewrites = 0;
  },
  async resolveId(source, importer, options) {
    if (source !== 'react-router' && source !== 'react-router/dom') return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved && { ...resolved, id: resolved.id.replace('/dist/development/', '/dist/production/') };
  },
  transform(code, id) {
    if (!/\/react-router\/dist\/production\/[^/]+\.mjs$/.test(id)) return null;
    return code
      .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, () => {
        routerRewrites += 1;
        return '';
      })
      .replace(/(= *)(React\d*\.(?:forwardRef|createContext|memo)\()/g, (_, assign: string, call: string) => {
        routerRewrites += 1;
        return `${assign}/* @__PURE__ */ ${call}`;
      });
  },
  buildEnd() {
    // A react-router release that words its output differently would make this a silent no-op and put
    // ~1.7 kB back on the first screen (docs/decisions/037): say so in the build output.
    if (routerRewrites === 0)
      this.warn('react-router-for-production: nothing matched; react-router is bundled unshaken');
  },
};

/*
 * Vite wraps every dynamic import in its preload helper even with `modulePreload: false`, because the
 * helper also loads a lazy chunk's own stylesheet (vitejs/vite#18551 and #13952, both open). Here it
 * only ever gets an empty list: no script is preloaded, and the whole stylesheet is one file linked
 * from index.html (`cssCodeSplit: false`). It was ~0.5 kB gzip of the entry, which every page loads.
 * The build gives the helper's module a body that just runs the import, and fails if a dynamic import
 * is ever handed files to preload (`__vite__mapDeps`), which that body would skip.
 */
const vitePreloadHelperId = '\0vite/preload-helper.js';
let preloadHelperSwapped = false;
const importWithoutPreloadHelper: Plugin = {
  name: 'import-without-preload-helper',
  apply: 'build',
  enforce: 'pre',
  buildStart() {
    preloadHelperSwapped = false;
  },
  load(id) {
    if (id !== vitePreloadHelperId) return null;
    preloadHelperSwapped = true;
    return 'export const __vitePreload = (load) => load();';
  },
  generateBundle: {
    // After Vite's own generateBundle, which writes each dynamic import's list of files.
    order: 'post',
    handler(_options, bundle) {
      const preloading = Object.values(bundle).filter(
        (file) => file.type === 'chunk' && file.code.includes('__vite__mapDeps'),
      );
      if (preloading.length > 0)
        this.error(
          `import-without-preload-helper: ${preloading.map((file) => file.fileName).join(', ')} must preload files; keep Vite's helper`,
        );
      // A Vite release that names the helper differently would keep it: say so in the build output.
      if (!preloadHelperSwapped)
        this.warn("import-without-preload-helper: Vite's preload helper was not found; the build keeps it");
    },
  },
};

/** Every file of the console that may name a class or a Bootstrap variable: sources, styles, the page. */
const webRoot = path.dirname(fileURLToPath(import.meta.url));
function classSources(dir = path.join(webRoot, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return classSources(file);
    return /\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/*
 * Bootstrap's stylesheet is 238 kB (33 kB gzip); the console uses a small part of it. The build keeps
 * only the rules whose classes, elements and attributes appear in apps/web/src and index.html, read at
 * every build, so a screen being written today keeps its classes without a list to update:
 * - a class built from a variable (`text-bg-${tone}`, `modal-${size}`) keeps every class that starts
 *   with its literal part, found in the sources the same way;
 * - a custom property (--bs-*) is kept when a kept rule, our styles or a source uses it; unused
 *   @keyframes go too.
 * Build only: tests and `vite dev` use the whole file. Figures: docs/decisions/028.
 */
const purgeBootstrap: Plugin = {
  name: 'purge-bootstrap',
  apply: 'build',
  enforce: 'pre',
  async transform(css, id) {
    if (!/\/bootstrap\/dist\/css\/bootstrap(\.min)?\.css$/.test(id.split('?')[0]!)) return null;
    const files = [path.join(webRoot, 'index.html'), ...classSources()];
    const sources = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    const prefixes = new Set([...sources.matchAll(/([a-z][a-z0-9-]*-)\$\{/g)].map((m) => m[1]!));
    const variables = new Set(sources.match(/--bs-[\w-]+/g) ?? []);
    const [result] = await new PurgeCSS().purge({
      content: [{ raw: sources, extension: 'html' }],
      css: [{ raw: css }],
      variables: true,
      keyframes: true,
      safelist: {
        standard: [...prefixes].map((prefix) => new RegExp(`^${escapeRegExp(prefix)}`)),
        variables: [...variables],
      },
    });
    return { code: result!.css, map: null };
  },
};

export default defineConfig({
  plugins: [react(), reactRouterForProduction, importWithoutPreloadHelper, purgeBootstrap],
  server: { proxy: api },
  preview: { proxy: api },
  // What each setting saves on the first screen: docs/decisions/010-first-screen-weight.md.
  build: {
    target: 'es2022',
    // The first screen has a 100 kB gzip budget (npm run bench:web); terser packs ~3 kB tighter than esbuild.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 } },
    // No preload helper and no list of every lazy chunk's dependencies in the entry (~1.4 kB gzip of
    // the first screen). A lazy screen's chunk imports its shared chunks directly (Rollup hoists
    // transitive imports), so the browser fetches them in one more round trip, on first visit only.
    modulePreload: false,
    // One stylesheet, linked from index.html: no lazy chunk has CSS of its own to load, which is what
    // lets the build drop Vite's preload helper (import-without-preload-helper above).
    cssCodeSplit: false,
    rollupOptions: {
      output: {
        /*
         * React, react-dom and the scheduler in one file. Left to Rollup they were three (it groups
         * modules by which lazy chunks import them), and split files gzip worse: ~0.9 kB more on every
         * console screen. A page that needs one needs all three; /success and /cancel need none, since
         * the React hooks of the session stores are in lib/use-session.ts (docs/decisions/028).
         */
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
        },
      },
    },
  },
});
