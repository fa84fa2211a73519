import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// `npm run dev:ui` serves the UI with hot reload on :5173 and passes every server path on to a
// Flagpole on :4242 (`npm run dev`, or FLAGPOLE_URL). Flagpole accepts changes made with the
// session cookie only from its own origin, so the proxy presents the request as coming from there.
const flagpole = process.env.FLAGPOLE_URL ?? 'http://localhost:4242';
const serverPaths = ['/api', '/auth', '/logout', '/invite', '/health', '/ready', '/docs'];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // One CSS file: the UI's styles are small, and a stylesheet per lazy screen flashes unstyled.
    cssCodeSplit: false,
  },
  server: {
    proxy: Object.fromEntries(
      serverPaths.map((path) => [
        path,
        {
          target: flagpole,
          changeOrigin: true,
          configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', flagpole)),
        },
      ]),
    ),
  },
});
