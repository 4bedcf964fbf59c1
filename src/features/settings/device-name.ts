/**
 * A signed-in device as the security screen names it, from the browser's user agent: the browser and
 * the system ("Chrome · Android"); what cannot be told from it is left out. null when neither can be
 * told (no agent sent): the screen then names the login's terminal code.
 */
export function deviceName(agent: string): string | null {
  const browser = /MicroMessenger/i.test(agent)
    ? 'WeChat'
    : /EdgA?\//.test(agent)
      ? 'Edge'
      : /(?:Firefox|FxiOS)\//.test(agent)
        ? 'Firefox'
        : /(?:Chrome|CriOS)\//.test(agent)
          ? 'Chrome'
          : /Safari\//.test(agent)
            ? 'Safari'
            : null;
  const system = /iPhone/.test(agent)
    ? 'iPhone'
    : /iPad/.test(agent)
      ? 'iPad'
      : /Android/.test(agent)
        ? 'Android'
        : /Windows/.test(agent)
          ? 'Windows'
          : /Mac OS X|Macintosh/.test(agent)
            ? 'macOS'
            : /Linux|X11/.test(agent)
              ? 'Linux'
              : null;
  const parts = [browser, system].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}
