/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import pkg from './package.json' with { type: 'json' };

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/routeTree.gen.ts' }),
    react(),
    babel({ presets: [linguiTransformerBabelPreset()] }),
    lingui({ failOnMissing: true }),
    vanillaExtractPlugin(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: { rollupFormat: 'iife', globPatterns: ['**/*.{js,css,html,svg}'] },
      devOptions: { enabled: false },
    }),
  ],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  resolve: {
    // The pre-React-18 shims are dead weight on React 19 (a few kB of the entry): use React's own.
    alias: [
      { find: /^use-sync-external-store\/shim$/, replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store.ts', import.meta.url)) },
      { find: /^use-sync-external-store\/shim\/with-selector$/, replacement: 'use-sync-external-store/with-selector' },
    ],
  },
  server: { port: 5173, proxy: { '/api': apiTarget } },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Every browser the app supports preloads modules natively; the polyfill would only add weight.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The framework every screen needs, in one chunk: dozens of tiny shared chunks cost more than they save.
        codeSplitting: {
          groups: [
            { name: 'framework', test: /rolldown[\\/]runtime|node_modules[\\/](react|react-dom|scheduler|jotai|@tanstack[\\/](react-router|router-core|history|react-store|store)|@lingui[\\/](core|react)|use-sync-external-store)[\\/]/ },
            // The app's own small shared modules (state, toasts, UI primitives) travel together too.
            { name: 'app', test: /(src[\\/](state[\\/]|components[\\/]ui[\\/](field|ui\.css|tab-bar[\\/]tabs\.)|lib[\\/](store|toast|navigation|messages|lazy-api)\.)|contract[\\/]rules\.)/ },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}', 'contract/**/*.test.ts'], setupFiles: ['src/test-setup.ts'] },
      },
      {
        extends: true,
        test: { name: 'server', environment: 'node', include: ['server/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e', environment: 'node', include: ['tests/**/*.test.ts'], globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false,
        },
      },
    ],
  },
});
