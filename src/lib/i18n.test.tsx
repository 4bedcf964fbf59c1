import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import linguiConfig, { features } from '../../lingui.config.ts';
import { i18n, activateLanguage, loadArea, areas } from './i18n.ts';

// The Lingui macros need the Babel step of vite.config.ts: without it the build passes and the app crashes.
describe('translated components through the real Vite config', () => {
  it('render in zh and then in en, and set <html lang>', async () => {
    await activateLanguage('zh');
    const { rerender } = render(
      <I18nProvider i18n={i18n}>
        <Trans>首页</Trans>
      </I18nProvider>,
    );
    expect(screen.getByText('首页')).toBeTruthy();
    expect(document.documentElement.lang).toBe('zh-CN');
    await activateLanguage('en');
    rerender(
      <I18nProvider i18n={i18n}>
        <Trans>首页</Trans>
      </I18nProvider>,
    );
    expect(screen.getByText('Home')).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    await activateLanguage('zh');
  });
});

// A catalog per area, each screen loading only its own.
describe('the catalogs by area', () => {
  const root = process.cwd();
  const folders = readdirSync(join(root, 'src/locales'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'codes')
    .map((d) => d.name);

  it('are the same areas in lingui.config.ts, in src/locales/ and in src/lib/i18n.ts', () => {
    const configured = linguiConfig.catalogs!.map((c) => /src\/locales\/(?:(\w+)\/)?\{locale\}$/.exec(c.path)?.[1] ?? 'ui').filter((a) => a !== 'codes');
    expect([...configured].sort()).toEqual([...areas].sort());
    expect([...folders, 'ui'].sort()).toEqual([...areas].sort());
    for (const f of readdirSync(join(root, 'src/features'))) if (f !== 'auth') expect(features, f).toContain(f);
    expect(readFileSync(join(root, 'src/locales/zh.po'), 'utf8')).not.toContain('msgid "邀请码（选填）"');
  });

  it('load in either language, and a language chosen later loads every area asked for so far', async () => {
    for (const area of areas) await expect(loadArea(area)).resolves.toBeUndefined();
    await activateLanguage('en');
    await activateLanguage('zh');
  });

  it('are loaded by the route of each screen before it renders: its feature (shared by the logged-in layout)', () => {
    const routes = join(root, 'src/routes');
    const files = [
      'test.tsx',
      ...['_authed', '_guest'].flatMap((d) =>
        readdirSync(join(routes, d))
          .filter((f) => f.endsWith('.tsx'))
          .map((f) => join(d, f)),
      ),
    ];
    let checked = 0;
    for (const file of files) {
      // Home's screen comes with the logged-in frame (src/routes/-authed-home.tsx): its feature is named there.
      const own = readFileSync(join(routes, file), 'utf8');
      const code = own.includes("import('../-authed-home.tsx')") ? own + readFileSync(join(routes, '-authed-home.tsx'), 'utf8') : own;
      const feature = /from '(?:\.\.\/)+features\/(\w+)\//.exec(code)?.[1];
      // The login form's texts are the entry's own (ui); the registration form's are an area of their own.
      const area = feature === 'auth' ? (/components\/register-/.test(code) ? 'register' : undefined) : feature;
      if (!area) continue;
      // Its catalog alone, or beside the screen's data (home: prefetchHome).
      expect(code, file).toMatch(new RegExp(`loader: \\(\\) => (Promise\\.all\\(\\[)?loadArea\\('${area}'\\)`));
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    // The logged-in layout's loader: the shared catalog with the frame (the tab bar and the HTTP client in it).
    expect(readFileSync(join(routes, '_authed.tsx'), 'utf8')).toMatch(/loader: async \(\) => \{\s*await Promise\.all\(\[loadFrame\(\), loadArea\('shared'\)\]\)/);
  });
});
