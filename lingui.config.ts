import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

const exclude = ['**/*.test.*'];
/** What the logged-in screens' catalog holds. */
const appAreas = [
  'settings', 'exchanges', 'bots', 'notices', 'referral', 'funds', 'rank', 'market',
].map((f) => `<rootDir>/src/features/${f}`).concat(['<rootDir>/src/shared', '<rootDir>/src/lib/wallet/wallet-errors.ts', '<rootDir>/src/routes/_authed']);

/**
 * zh is the source and the fallback; en is the second language (spec §2). Three catalogs, so each
 * screen ships only the texts it can show:
 * - src/locales/{locale}: the public screens, the shell and the client's messages (in the entry);
 * - src/locales/app/{locale}: the logged-in screens and what they share (src/shared), loaded by the
 *   guard of those screens, and the wallet's error texts (loaded by the login screen only when a wallet
 *   login fails);
 * - src/locales/codes/{locale}: the server's answer texts (read by the server only).
 */
export default defineConfig({
  sourceLocale: 'zh',
  locales: ['zh', 'en'],
  fallbackLocales: { default: 'zh' },
  catalogs: [
    { path: '<rootDir>/src/locales/codes/{locale}', include: ['<rootDir>/src/locales/code-messages.ts'] },
    { path: '<rootDir>/src/locales/app/{locale}', include: appAreas, exclude },
    {
      path: '<rootDir>/src/locales/{locale}',
      include: ['<rootDir>/src'],
      exclude: [...exclude, '<rootDir>/src/locales/code-messages.ts', ...appAreas],
    },
  ],
  format: formatter({ origins: false, lineNumbers: false, explicitIdAsDefault: true }),
});
