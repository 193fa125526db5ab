import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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
const reactRouterForProduction: Plugin = {
  name: 'react-router-for-production',
  apply: 'build',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (source !== 'react-router' && source !== 'react-router/dom') return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved && { ...resolved, id: resolved.id.replace('/dist/development/', '/dist/production/') };
  },
  transform(code, id) {
    if (!/\/react-router\/dist\/production\/[^/]+\.mjs$/.test(id)) return null;
    return code
      .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, '')
      .replace(/(= *)(React\d*\.(?:forwardRef|createContext|memo)\()/g, '$1/* @__PURE__ */ $2');
  },
};

export default defineConfig({
  plugins: [react(), reactRouterForProduction],
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
  },
});
