import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

const DIST = resolve(import.meta.dirname, 'dist');

/**
 * The files of the crew's phone view (m.html) and everything it may load (its imports, its
 * dynamic imports: the language, the photo compressor), read from the build's manifest: the service
 * worker keeps these and none of the console's.
 */
function crewFiles(): Set<string> {
  const manifest = JSON.parse(readFileSync(resolve(DIST, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[]; dynamicImports?: string[] }>;
  const files = new Set<string>(['m.html', 'm.webmanifest', 'm-icon-192.png', 'm-icon-512.png', 'logo.svg']);
  const walk = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.css?.forEach((css) => files.add(css));
    [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])].forEach(walk);
  };
  walk('m.html');
  return files;
}

export default defineConfig({
  plugins: [
    react(),
    // The crew's phone view is installable and works offline: a service worker of its own, for /m/ only.
    VitePWA({
      filename: 'm-sw.js',
      scope: '/m/',
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        manifestTransforms: [
          async (entries) => {
            const keep = crewFiles();
            return { manifest: entries.filter((e) => keep.has(e.url)), warnings: [] };
          },
        ],
        navigateFallback: '/m.html',
        navigateFallbackAllowlist: [/^\/m\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    // Brotli and gzip copies beside each file, made once at build time: the server sends the one
    // the browser accepts (@fastify/static preCompressed) instead of compressing per request.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    manifest: true,
    rollupOptions: { input: { console: resolve(import.meta.dirname, 'index.html'), crew: resolve(import.meta.dirname, 'm.html') } },
  },
});
