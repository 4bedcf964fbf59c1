import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Code, type CodeName } from '../contract/codes.ts';
import { languageOf, loadMessages, message } from './i18n.ts';

describe('the server texts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'po-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads PO files as Lingui writes them, and falls back to zh, then to the id', () => {
    writeFileSync(
      join(dir, 'zh.po'),
      [
        'msgid ""',
        'msgstr ""',
        '"Language: zh\\n"',
        '',
        'msgid "code.Success"',
        'msgstr "操作成功"',
        '',
        'msgid "code.NotFound"',
        'msgstr "接口不存在"',
        '',
        'msgid "code.TooManyAttempts"',
        'msgstr ""',
        '"尝试次数过多，"',
        '"请 {minutes} 分钟后再试"',
        '',
        '#, fuzzy',
        'msgid "code.Timeout"',
        'msgstr "未定稿"',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'en.po'), ['msgid "code.Success"', 'msgstr "Success \\"quoted\\""', '', 'msgid "code.NotFound"', 'msgstr ""', ''].join('\n'));
    const t = loadMessages(dir);
    expect(t('en', 'Success')).toBe('Success "quoted"');
    expect(t('zh', 'Success')).toBe('操作成功');
    expect(t('en', 'NotFound')).toBe('接口不存在'); // untranslated in en: zh
    expect(t('zh', 'TooManyAttempts', { minutes: 7 })).toBe('尝试次数过多，请 7 分钟后再试'); // wrapped lines
    expect(t('en', 'TooManyAttempts', { minutes: 7 })).toBe('尝试次数过多，请 7 分钟后再试');
    expect(t('zh', 'Timeout')).toBe('code.Timeout'); // fuzzy entries are not used
    expect(t('en', 'Maintenance')).toBe('code.Maintenance');
  });

  it('survives missing catalogs', () => {
    const t = loadMessages(join(dir, 'nowhere'));
    expect(t('en', 'Success')).toBe('code.Success');
  });

  it('has a zh and a distinct en text for every code in the project catalogs', () => {
    for (const name of Object.keys(Code) as CodeName[]) {
      const zh = message('zh', name);
      const en = message('en', name);
      expect(zh, name).not.toMatch(/^code\./);
      expect(en, name).not.toMatch(/^code\./);
      expect(en, name).not.toBe(zh);
    }
  });

  it('takes the language from the lang header: en, else zh', () => {
    expect(languageOf('en')).toBe('en');
    expect(languageOf('zh')).toBe('zh');
    for (const other of ['fr', 'EN', '', undefined, ['en', 'zh']]) expect(languageOf(other)).toBe('zh');
  });
});
