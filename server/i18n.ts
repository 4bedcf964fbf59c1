import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePo } from 'pofile-ts';
import { messageIdOf, type CodeName } from '../contract/codes.ts';
import { languages, type Language } from '../contract/envelope.ts';

/**
 * The server's answer texts live in the Lingui catalog of response codes (src/locales/codes/*.po, made
 * from src/locales/code-messages.ts), so one text lives in one place. Parsed with a real PO parser:
 * Lingui may wrap long strings over several lines or mark entries fuzzy/obsolete.
 */
export const defaultCatalogDir = join(import.meta.dirname, '..', 'src', 'locales', 'codes');

function readCatalog(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // A missing catalog is not fatal: the fallback chain (zh, then the id) still yields an answer.
    return entries;
  }
  for (const item of parsePo(text).items) {
    const msgstr = item.msgstr[0];
    if (item.msgid && msgstr && !item.obsolete && !item.flags.fuzzy) entries.set(item.msgid, msgstr);
  }
  return entries;
}

export type Translate = (lang: Language, code: CodeName, values?: Record<string, string | number>) => string;

/** Loads the zh and en catalogs of `dir` once and returns the translator: the language's text, else zh, else the id. */
export function loadMessages(dir = defaultCatalogDir): Translate {
  const catalogs = Object.fromEntries(languages.map((l) => [l, readCatalog(join(dir, `${l}.po`))])) as Record<Language, Map<string, string>>;
  return (lang, code, values) => {
    const id = messageIdOf(code);
    const text = catalogs[lang].get(id) ?? catalogs.zh.get(id) ?? id;
    return values ? text.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all)) : text;
  };
}

let standard: Translate | undefined;
/** The text of a response code in a language, from the project's catalogs (read on first use). */
export function message(lang: Language, code: CodeName, values?: Record<string, string | number>): string {
  standard ??= loadMessages();
  return standard(lang, code, values);
}

/** The language of a request: the `lang` header when it is en, else zh (the default and fallback). */
export function languageOf(header: unknown): Language {
  return header === 'en' ? 'en' : 'zh';
}
