import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// server/store/ is the only production code that reads or writes the bot tables: a query over them
// anywhere else would bypass the one place that decodes their JSON and keeps their locking in one
// shape. The migrations and the schema create the tables; the test harness seeds them.

const server = join(import.meta.dirname, '..');
const TABLES = 'bots|bot_actions|bot_orders|batch_tasks';

/** A Kysely builder naming a bot table (`selectFrom('bots as b')`, `innerJoin('bot_orders', ...)`, `sql.table('bots')`). */
const builder = new RegExp(
  String.raw`\b(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin|using|table)\(\s*\[?\s*['"\x60](${TABLES})\b`,
);
/** Raw SQL naming a bot table (`from bots`, `join bot_orders`, `update bots`, `into bot_actions`, `truncate batch_tasks`). */
const raw = new RegExp(String.raw`\b(from|join|update|into|truncate|table)\s+(only\s+)?(${TABLES})\b`, 'i');

/** Whether a path (relative to server/) may query the bot tables. */
const exempt = (path: string) => path.startsWith('store/') || path.startsWith('testing/') || /^db\/migrations[^/]*\.ts$/.test(path) || path === 'db/schema.ts';

/** The non-test TypeScript files under server/, relative to it. */
function sources(dir = server): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [relative(server, path)] : [];
  });
}

/**
 * The code of a TypeScript source with its comments blanked (newlines kept, so lines still count): a
 * comment's prose may say "read from bots" without being a query. Strings and templates are kept, the
 * code inside a template's `${}` read as code again.
 */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  // What encloses the current position: a template ('`') or a `${}` inside one ('{', counting braces).
  const stack: ('`' | number)[] = [];
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (top === '`') {
      if (c === '\\') {
        out += text.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        stack.pop();
        out += c;
        i++;
      } else if (c === '$' && text[i + 1] === '{') {
        stack.push(0);
        out += '${';
        i += 2;
      } else {
        out += c;
        i++;
      }
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '`') {
      stack.push('`');
      out += c;
      i++;
    } else {
      if (typeof top === 'number') {
        if (c === '{') stack[stack.length - 1] = top + 1;
        else if (c === '}') {
          if (top === 0) stack.pop();
          else stack[stack.length - 1] = top - 1;
        }
      }
      out += c;
      i++;
    }
  }
  return out;
}

/** Each query over a bot table in a source's code, as `file:line: the line`. */
function queriesIn(file: string, text: string): string[] {
  const code = withoutComments(text).split('\n');
  const lines = text.split('\n');
  // A raw query may break between its keyword and the table: each line is read with the next one.
  return code.flatMap((line, n) =>
    builder.test(line) || raw.test(line) || raw.test(`${line.match(/\b(from|join|update|into)\s*$/i)?.[0] ?? '-'} ${code[n + 1] ?? ''}`.trim()) ? [`${file}:${n + 1}: ${lines[n]!.trim()}`] : [],
  );
}

describe('the bot store owns the bot tables', () => {
  it('finds a builder call, a raw query and a query split over two lines, and not prose in a comment', () => {
    const sample = `const a = await db.selectFrom('bots as b').selectAll().execute();
await tx.insertInto('bot_actions').values(line).execute();
const { rows } = await sql\`select 1 from bot_orders o where o.id = \${id}\`.execute(db);
await sql\`update \${sql.raw(name)} set x = \${f({ a: '}' })}, y = (select 1 from batch_tasks)\`.execute(db);
const r = await sql\`select b.id from
  bots b\`.execute(db);
// the fuel is read from bots of the trader
/** joins bots with their orders: join bot_orders */
const text = 'bots are many';`;
    expect(queriesIn('sample.ts', sample).map((q) => q.split(':')[1])).toEqual(['1', '2', '3', '4', '5']);
  });

  it('no production code outside server/store/ queries bots, bot_orders, bot_actions or batch_tasks', () => {
    const files = sources().filter((f) => !exempt(f));
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => queriesIn(`server/${f}`, readFileSync(join(server, f), 'utf8')));
    expect(found, 'move these queries into a server/store/ function and call it').toEqual([]);
  });
});
