/**
 * The kinds of a bot's action log line (the all-bots log filters by them). Plain values in a file of
 * their own: the PWA's log screen imports them without zod (contract/bots.ts) and without adding them
 * to the /login entry (contract/rules.ts travels with it).
 */
export const actionKinds = [
  'manual',
  'success',
  'failed',
  'close',
  'manual_close',
  'open',
  'pause',
  'start',
  'add',
  'manual_add',
  'create',
  'update',
  'delete',
  'stop',
  'resume',
  'trailing_armed',
  'trailing_fired',
  'signal',
] as const;
export type ActionKind = (typeof actionKinds)[number];
