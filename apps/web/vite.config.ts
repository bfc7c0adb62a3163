import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
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
  },
});
