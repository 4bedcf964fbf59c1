import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageIdOf, type CodeName } from '../contract/codes.ts';
import type { Language } from '../contract/envelope.ts';

/**
 * The server's texts come from the Lingui catalog of answer texts (src/locales/codes/*.po, made from
 * src/locales/code-messages.ts), so one text lives in one place. Read once at start-up; Lingui writes
 * single-line msgid/msgstr pairs.
 */
function readCatalog(locale: Language, dir: string): Map<string, string> {
  const entries = new Map<string, string>();
  let text = '';
  try {
    text = readFileSync(join(dir, `${locale}.po`), 'utf8');
  } catch {
    return entries;
  }
  for (const m of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"$/gm)) {
    if (m[1] && m[2]) entries.set(JSON.parse(`"${m[1]}"`) as string, JSON.parse(`"${m[2]}"`) as string);
  }
  return entries;
}

export type Translate = (lang: Language, code: CodeName, values?: Record<string, string | number>) => string;

/** Loads both catalogs and returns the translator: the language's text, else zh, else the id. */
export function loadMessages(dir = join(import.meta.dirname, '..', 'src', 'locales', 'codes')): Translate {
  const catalogs = { zh: readCatalog('zh', dir), en: readCatalog('en', dir) };
  return (lang, code, values) => {
    const id = messageIdOf(code);
    const text = catalogs[lang].get(id) ?? catalogs.zh.get(id) ?? id;
    return values ? text.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all)) : text;
  };
}

/** The language of a request: the `lang` header when it is en, else zh (the default and fallback). */
export function languageOf(header: unknown): Language {
  return header === 'en' ? 'en' : 'zh';
}
