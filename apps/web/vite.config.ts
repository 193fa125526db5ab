import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// In `vite dev` the API paths go to a locally running API (apps/api, PORT=3300); in production the
// API serves the built app on its own origin, so the client's base URL stays ''.
const api = { '/api': { target: 'http://localhost:3300', changeOrigin: true } };

export default defineConfig({
  plugins: [react()],
  server: { proxy: api },
  preview: { proxy: api },
  build: { target: 'es2022' },
});
