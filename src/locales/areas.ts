import type { Messages } from '@lingui/core';

/**
 * The catalog of each logged-in area in each language (lingui.config.ts), one chunk each, compiled by
 * the Lingui Vite plugin; codes/ is the server's. Loaded by src/lib/i18n.ts on the first loadArea: the
 * public screens never need this map, so it stays out of the /login entry.
 */
export const catalogs = import.meta.glob<{ messages: Messages }>(['./*/*.po', '!./codes/*.po']);
