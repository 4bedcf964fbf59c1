/**
 * The checks every input goes through before a handler sees it, whatever the route (a contract call,
 * the signal webhook, a path that is no call): no NUL character (PostgreSQL cannot store it in text or
 * jsonb) and no nesting deeper than MAX_INPUT_DEPTH. Walked with a stack of its own, not by recursion:
 * JSON nested 30,000 deep fits in 60 kB, and a recursive walk of it overflows the call stack.
 */

/** The deepest nesting any input may have: the deepest real body (a custom bot's rules) is about 6 levels. */
export const MAX_INPUT_DEPTH = 32;

/** What is wrong with an input: the path of a NUL (a key's path ends in `key`), or `body (too deep)`. */
export type InputProblem = { kind: 'nul'; path: string } | { kind: 'deep'; path: string };

/** The first problem of `value` (an object, array, string, or anything else JSON holds), or null. */
export function inputProblem(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: at, path } = stack.pop()!;
    if (typeof at === 'string') {
      if (at.includes('\u0000')) return { kind: 'nul', path: path.join('.') || 'body' };
      continue;
    }
    if (!at || typeof at !== 'object') continue;
    if (path.length >= maxDepth) return { kind: 'deep', path: 'body (too deep)' };
    // Pushed in reverse, so the first problem in reading order is the one found.
    const entries = Object.entries(at as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      if (key.includes('\u0000')) return { kind: 'nul', path: [...path, 'key'].join('.') };
      stack.push({ value: inner, path: [...path, key] });
    }
  }
  return null;
}

/** How deep JSON text nests (brackets outside strings), counted without parsing it: a body too deep is refused before it is parsed. */
export function jsonDepthOver(text: string, maxDepth = MAX_INPUT_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
