import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { i18nPlugin } from './i18n-plugin.ts';

const srcDir = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  plugins: [react(), i18nPlugin(srcDir)],
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? 3000}` } },
  build: {
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry imports statically (the sign-in page, before any route loads on demand) in one
          // chunk: left to the automatic splitting it is some twenty small files shared with the lazy
          // screens, each compressed on its own, about 5 KB more gzip (bench/login-bundle.mjs). The
          // screens import what they share from it; the browser already has it.
          groups: [{ name: 'sign-in', tags: ['$initial'] }],
        },
      },
    },
  },
});
