/// <reference types="vitest/config" />
import { defineConfig, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import pkg from './package.json' with { type: 'json' };

/**
 * In the build, index.html becomes: the splash (in the HTML, painted at once), public/boot.js inlined
 * (theme and language before the first paint, the service worker), and the app's scripts started by
 * that boot code right after the first paint instead of by tags in <head>: the splash shows while the
 * JavaScript loads, on a slow phone network too. The server allows exactly this inline script by its
 * hash in the CSP (server/http/static.ts).
 *
 * On a phone's network (HTTP/1.1: six connections, each request a round trip) the number of files
 * counts as much as their bytes. So: one style sheet for the whole app (cssCodeSplit off,
 * 4.7 kB brotli), the favicon inside the page, the manifest linked only once the first screen is up (the
 * browser fetched it and an icon before the app's code otherwise), and, on the logged-in home, every
 * file its first render needs (the framework first) asked for at once instead of found level by level.
 */
/**
 * Chunks that only run with the network (a wallet's connection, an on-chain deposit, a custom bot's
 * indicator panes, drawn on candles fetched for them): not precached.
 */
export const ONLINE_ONLY_CHUNKS = ['assets/wallet-connect-*.js', 'assets/wallet-deposit-*.js', 'assets/indicator-plots-*.js', 'assets/qrcode-*.js'];

/** The module whose chunk is the logged-in frame with home (src/routes/-authed-home.tsx), and home's catalogs. */
const HOME_FRAME = /src[\\/]routes[\\/]-authed-home\.tsx$/;
const HOME_CATALOGS = { zh: /src[\\/]locales[\\/](areas\.ts|(shared|bots)[\\/]zh\.po)$/, en: /src[\\/]locales[\\/](areas\.ts|en\.po|(shared|bots)[\\/]en\.po)$/ };

/** Every file a first render of home needs beyond the entry's own: the frame's chunk and its imports, then the catalogs by language. */
function homeFiles(bundle: Rolldown.OutputBundle, entryFiles: Set<string>): { zh: string[]; en: string[] } {
  const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const frame = chunks.find((c) => c.isDynamicEntry && HOME_FRAME.test(c.facadeModuleId ?? ''));
  if (!frame) throw new Error('inline-boot: no chunk for src/routes/-authed-home.tsx');
  const files = new Set<string>();
  const walk = (file: string) => {
    const chunk = bundle[file];
    if (files.has(file) || entryFiles.has(file) || chunk?.type !== 'chunk') return;
    files.add(file);
    for (const imported of chunk.imports) walk(imported);
  };
  walk(frame.fileName);
  const catalogs = (test: RegExp) => chunks.filter((c) => c.isDynamicEntry && test.test(c.facadeModuleId ?? '')).map((c) => c.fileName);
  return { zh: [...files, ...catalogs(HOME_CATALOGS.zh)].map((f) => `/${f}`), en: [...files, ...catalogs(HOME_CATALOGS.en)].map((f) => `/${f}`) };
}

const inlineBoot = {
  name: 'inline-boot',
  apply: 'build' as const,
  // After vite-plugin-pwa's own page changes: its manifest link is moved out of the page (boot.js adds it).
  enforce: 'post' as const,
  transformIndexHtml: {
    order: 'post' as const,
    handler(html: string, ctx: { bundle?: Rolldown.OutputBundle }) {
      const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
      if (!entry) throw new Error('inline-boot: no entry script in index.html');
      const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
      let out = html.replace(entry[0], '').replace(/<link rel="manifest"[^>]*>/, '');
      for (const p of preloads) out = out.replace(p[0], '');
      // The framework first: the largest file, the last to arrive otherwise.
      const entryFiles = preloads.map((p) => p[1]!).sort((a, b) => Number(b.includes('/framework-')) - Number(a.includes('/framework-')));
      const home = homeFiles(ctx.bundle ?? {}, new Set([...entryFiles, entry[1]!].map((f) => f.slice(1))));
      // boot.js defines __askEarly on the logged-in home. There, after the entry's files (the framework
      // first), all of home's files, then its calls: each in a task of its own, as a modulepreload link
      // costs the main thread about a millisecond (4 at Lighthouse's 4x): one task for all was a long one.
      const start =
        `;(function(d){function p(h){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;d.head.appendChild(l)}` +
        `function go(){var e=window.__askEarly;${JSON.stringify(entryFiles)}.forEach(p);` +
        `var s=d.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entry[1])};d.head.appendChild(s);` +
        `e&&setTimeout(function(){(${JSON.stringify(home)})[d.documentElement.lang==='en'?'en':'zh'].forEach(p);setTimeout(e)})}` +
        `d.hidden?go():requestAnimationFrame(function(){setTimeout(go)})})(document)`;
      const boot = readFileSync('public/boot.js', 'utf8')
        .replace(/^\/\/.*\n/gm, '')
        .trim();
      const icon = `data:image/svg+xml,${encodeURIComponent(readFileSync('public/favicon.svg', 'utf8').trim())}`;
      return out
        .replace('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />', () => `<link rel="icon" href="${icon}" type="image/svg+xml" />`)
        .replace('<script src="/boot.js"></script>', () => `<script>${boot}${start}</script>`);
    },
  },
};

/**
 * The contract's call routes as plain data (`virtual:contract-calls`): the PWA needs each call's method,
 * path and flags at run time, and the calls' definitions (contract/calls.ts) carry their zod schemas,
 * which must stay out of the PWA's files. The table is built here, in Node, from those definitions.
 */
const CONTRACT_CALLS = 'virtual:contract-calls';
const contractCalls = {
  name: 'contract-calls',
  resolveId: (id: string) => (id === CONTRACT_CALLS ? `\0${CONTRACT_CALLS}` : undefined),
  async load(id: string) {
    if (id !== `\0${CONTRACT_CALLS}`) return undefined;
    const contract: typeof import('./contract/calls.ts') = await import(new URL('./contract/calls.ts', import.meta.url).href);
    return `export const calls = ${JSON.stringify(contract.routesOf())};`;
  },
};

/** Libraries loaded on demand of which only a part runs (see postBanner below). */
const onDemandLibraries = /node_modules[\\/](lightweight-charts|viem|ox|abitype|@noble|@scure|wagmi|@wagmi|@walletconnect|qrcode|decimal\.js|altcha-lib)[\\/]/;
/**
 * A chunk worth the compile hint: code (not a catalog) of some size (the comment costs bytes of the
 * /login budget, hence not the small entry file either), not an on-demand library.
 */
const compileEagerly = (chunk: Rolldown.RenderedChunk) =>
  !chunk.isEntry &&
  Object.values(chunk.modules).reduce((sum, m) => sum + m.renderedLength, 0) >= 20_000 &&
  !chunk.moduleIds.every((id) => id.endsWith('.po')) &&
  !chunk.moduleIds.some((id) => onDemandLibraries.test(id));

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;

export default defineConfig({
  plugins: [
    contractCalls,
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
      // Names in zh (the default language) with an en translation; colours for light and dark.
      manifest: {
        id: '/',
        name: 'QuantBot 量化交易机器人',
        short_name: 'QuantBot',
        description: '马丁、网格与 AI 策略机器人：绑定交易所，自动补仓与止盈，离线也能查看策略。',
        lang: 'zh-CN',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#1d5fd6',
        background_color: '#f4f6fa',
        categories: ['finance', 'productivity'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          { src: '/screenshots/home.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: '首页：收益、策略与行情' },
          { src: '/screenshots/bot.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: '策略详情：K 线、均价与止盈线' },
        ],
        // Read by browsers that support manifest translations and dark colours; others use the values above.
        translations: {
          en: {
            name: 'QuantBot trading bots',
            short_name: 'QuantBot',
            description: 'Martin, grid and AI strategy bots: bind an exchange, add and take profit automatically, see your bots offline.',
          },
        },
        user_preferences: { color_scheme_dark: { theme_color: '#0e1116', background_color: '#0e1116' } },
      } as never,
      // The precache: the app's code, styles and page. Not boot.js (the build inlines it into index.html),
      // nor the manifest's icons (the browser fetches those itself when it installs the app), nor the
      // wallet's connection and deposit code (31 kB gzip): a wallet sign-in or an on-chain deposit needs
      // the network anyway, and offline the screens say so before that code would run.
      injectManifest: { rollupFormat: 'iife', globPatterns: ['**/*.{js,css,html,svg}'], globIgnores: ['boot.js', ...ONLINE_ONLY_CHUNKS] },
      includeManifestIcons: false,
      devOptions: { enabled: false },
    }),
    // After vite-plugin-pwa: the page as it is served (see inlineBoot above).
    inlineBoot,
    // Brotli and gzip copies beside every script, style and page of the build, served by the server in
    // their place to a browser that accepts them (server/http/static.ts): the framework chunk travels as
    // 86 kB instead of 312 kB on a phone's network.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|html|svg|webmanifest)$/, threshold: 1024, logLevel: 'silent' }),
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
    // One style sheet for every screen (4.7 kB brotli in all): a screen's styles no longer a file of their own.
    cssCodeSplit: false,
    // The entry's own imports are preloaded from the HTML (no waterfall before the first paint); the map
    // of every lazy chunk's dependencies is left out of the entry (it was 0.85 kB gzip of /login's 110 kB
    // budget): a route's imports load its dependencies, from the service worker's precache after the
    // first visit. Browsers that run the app preload modules natively: no polyfill.
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: {
      // Quiet what is not a problem: the note that plugins took a share of a slow build (a loaded
      // machine's first build looked like an error), and viem's tempo helper reaching for Node's threads,
      // which the app never calls (externalized, as intended).
      checks: { bundlerTimings: false },
      onLog(level, log, handler) {
        if (log.message.includes('"node:worker_threads" has been externalized') && log.message.includes('/ox/')) return;
        handler(level, log);
      },
      output: {
        // V8 compiles the functions of these files while they stream in, off the main thread, instead of
        // lazily on their first call on it (explicit compile hints, Chrome 136+; a plain comment elsewhere):
        // most of a screen's code runs as soon as it loads. Not the big libraries a tap loads (chart,
        // wallet, QR code), which run only in part.
        postBanner: (chunk) => (compileEagerly(chunk) ? '//# allFunctionsCalledOnLoad\n' : ''),
        // The framework every screen needs, in one chunk: dozens of tiny shared chunks cost more than they save.
        codeSplitting: {
          groups: [
            // Vite's preload helper too: a lazy chunk importing it from `app` would list app's CSS as a dependency.
            {
              name: 'framework',
              test: /rolldown[\\/]runtime|vite[\\/]preload-helper|node_modules[\\/](react|react-dom|scheduler|jotai|@tanstack[\\/](react-router|router-core|history|react-store|store)|@lingui[\\/](core|react)|use-sync-external-store)[\\/]/,
            },
            // The app's own small shared modules (state, toasts, UI primitives) travel together too.
            // The wallet detection too (a few hundred bytes /login needs at once): a file of its own cost /login ~100 B more.
            // The language code with its zh catalog, and the tab bar's holder: files of their own otherwise, a request each.
            {
              name: 'app',
              test: /(src[\\/](state[\\/]|components[\\/]ui[\\/](field|ui\.css|tab-bar[\\/](tabs|lazy-tab-bar)\.)|lib[\\/](i18n|store|toast|navigation|messages|lazy-api|wallet[\\/](use-wallet-detected|detect))\.)|contract[\\/]rules\.|locales[\\/]zh\.po)/,
            },
            // The QR code library in a file of its own name, left to the network (ONLINE_ONLY_CHUNKS): a QR code
            // is drawn beside the text it encodes (a referral link, a deposit address, the 2FA secret), which
            // the screen shows offline too.
            { name: 'qrcode', test: /node_modules[\\/](qrcode|dijkstrajs|pngjs)[\\/]/ },
            // The HTTP client and its call list: one file, whether /login's form or a logged-in screen asks first.
            // Not the code table (contract/codes.ts): the client needs only the session-end codes, written as
            // numbers; the table goes with the few screens that name a code.
            { name: 'http', test: /node_modules[\\/]ky[\\/]|src[\\/]lib[\\/](http|api)\.ts|virtual:contract-calls/ },
            // What most logged-in screens share (the query cache, the page frame, figures, the common blocks),
            // in one file instead of a dozen of a few hundred bytes each: on a phone's network each file is a
            // request of its own, and a screen's first render waited for four levels of them.
            {
              name: 'screens',
              test: (id) =>
                /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]|src[\\/](shared|components[\\/]ui)[\\/]/.test(id) &&
                // Not what brings a library of its own (the dialog, the chart) or serves few screens.
                !/confirm-dialog|dialog\.css|otp-field|refusal|withdraw-lock|price-chart/.test(id),
              minShareCount: 3,
              // Not the libraries those pull in (the dialog's, for one): they stay with the screens that use them.
              includeDependenciesRecursively: false,
            },
            // Likewise the parts the bot screens share (figures, badges, the trading-mode switch, the portfolio card).
            {
              name: 'bots-common',
              test: /src[\\/](features[\\/]bots[\\/](use-trading-mode|components[\\/](offline-banner|figure|bots\.css|returns|mode-switch))|shared[\\/]portfolio)/,
              minShareCount: 2,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        // Not isolated either (as the server's, below): each file loading React, Lingui and jsdom's page afresh
        // took seconds of a loaded machine for tests of milliseconds.
        test: { name: 'unit', environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}', 'contract/**/*.test.ts', 'sw/**/*.test.ts'], setupFiles: ['src/test-setup.ts'], isolate: false },
      },
      {
        extends: true,
        // Deadlines are generous (a loaded 2-core machine, another npm test beside): waits poll up to 15 s.
        // Not isolated: a worker keeps the modules it loaded (ccxt, Fastify, viem, the server) for its next file,
        // where loading them again for each of nearly 200 files took most of the run. Each file opens its own
        // app, database and engine and closes them, so no state is shared through the modules.
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'strategy/**/*.test.ts'],
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One worker keeps Playwright and the support code it loaded for the next file: each file opens its own phones.
          isolate: false,
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
