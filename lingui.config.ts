import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/** zh is the source and the fallback; en is the second language (spec §2). */
export default defineConfig({
  sourceLocale: 'zh',
  locales: ['zh', 'en'],
  fallbackLocales: { default: 'zh' },
  catalogs: [{ path: '<rootDir>/src/locales/{locale}', include: ['<rootDir>/src'], exclude: ['**/*.test.*'] }],
  format: formatter({ origins: false, lineNumbers: false, explicitIdAsDefault: true }),
});
