import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://127.0.0.1:5000';

export default defineConfig(({ command, isSsrBuild }) => {
  // A build is always a production build: with NODE_ENV=development in the environment (a developer's
  // shell, a misconfigured host) Vite would otherwise bundle React's development build.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react(), tailwindcss()],
    resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
    // The server render's build (web/dist-server, `vite build --ssr`) needs none of the public files.
    publicDir: isSsrBuild ? false : 'public',
    server: { port: 5173, proxy: { '/api': apiTarget, '/uploads': apiTarget } },
    // No source maps in the shipped app: they would publish the whole source to anyone.
    build: { outDir: 'dist', sourcemap: false, manifest: true, chunkSizeWarningLimit: 400 },
  };
});
