import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Code, clientMessageIds, messageIdOf, type CodeName } from '../../contract/codes.ts';

/** msgid -> msgstr of a Lingui .po catalog (single-line entries, as Lingui writes them). */
function readCatalog(file: string): Map<string, string> {
  const text = readFileSync(join(process.cwd(), 'src/locales', file), 'utf8');
  const entries = new Map<string, string>();
  for (const m of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"$/gm)) {
    if (m[1]) entries.set(JSON.parse(`"${m[1]}"`) as string, JSON.parse(`"${m[2]}"`) as string);
  }
  return entries;
}

// Every catalog: the public one (src/locales/*.po), one per logged-in area (bots/, settings/, shared/, ...)
// and the server's answer texts (codes/).
const folders = ['', ...readdirSync(join(process.cwd(), 'src/locales')).filter((f) => statSync(join(process.cwd(), 'src/locales', f)).isDirectory())];
const catalogs = folders.map((folder) => ({ folder: folder || '(public)', zh: readCatalog(join(folder, 'zh.po')), en: readCatalog(join(folder, 'en.po')) }));
const zh = new Map(catalogs.flatMap((c) => [...c.zh]));
const en = new Map(catalogs.flatMap((c) => [...c.en]));

describe('the catalogs', () => {
  it('are one per area, each in zh and en', () => {
    expect(folders.length).toBeGreaterThan(3);
    for (const c of catalogs) expect(c.zh.size, c.folder).toBeGreaterThan(0);
  });

  it('translate every message of each catalog into English', () => {
    for (const c of catalogs) {
      expect(
        [...c.en].filter(([, text]) => text.trim() === '').map(([id]) => id),
        c.folder,
      ).toEqual([]);
      expect(
        [...c.zh.keys()].filter((id) => !c.en.has(id)),
        c.folder,
      ).toEqual([]);
      expect(
        [...c.en.keys()].filter((id) => !c.zh.has(id)),
        c.folder,
      ).toEqual([]);
    }
  });

  it('hold a zh and an en text for every response code and every client message', () => {
    const ids = [...(Object.keys(Code) as CodeName[]).map(messageIdOf), ...clientMessageIds];
    for (const id of ids) {
      expect(zh.get(id), id).toBeTruthy();
      expect(en.get(id), id).toBeTruthy();
    }
  });

  it('keep the texts that docs/product.md §8 fixes word for word', () => {
    expect(zh.get('toast.success')).toBe('操作成功');
    expect(zh.get('toast.failure')).toBe('操作失败，请稍后重试');
    expect(zh.get('net.timeout')).toBe('请求超时，请稍后重试');
    expect(zh.get('net.offline')).toBe('网络连接失败，请检查网络');
    expect(zh.get('net.other')).toBe('网络错误，请稍后重试');
    expect(zh.get('http.401')).toBe('未授权访问');
    expect(zh.get('http.403')).toBe('访问被拒绝');
    expect(zh.get('http.404')).toBe('接口不存在');
    expect(zh.get('http.500')).toBe('服务器内部错误');
    expect(zh.get('http.503')).toBe('服务暂时不可用');
    expect(zh.get('http.other')).toBe('服务器错误');
    expect(en.get('code.SimulationSpotUnsupported')).toBe('Simulation is not supported for spot on this exchange');
    expect(en.get('code.BindAddFailed')).toBe('Add failed, please check if the key is correct');
    expect(en.get('code.BindUpdateFailed')).toBe('Update failed, please check if the key is correct');
  });
});
