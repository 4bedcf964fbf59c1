/** The alert kinds and modes, without zod: the PWA's settings screen reads them at run time. */

/**
 * The kinds a trader sets: fills (orders filled), cycles (deals closed, take profit, stop loss), pauses
 * (a bot paused or refused, its key refused), money (deposits, withdrawals moving on, fuel), security
 * (new device, password or two-factor change, withdrawal asked: always on), exchange (an exchange down
 * or back).
 */
export const alertKinds = ['fills', 'cycles', 'pauses', 'money', 'security', 'exchange'] as const;
export type AlertKind = (typeof alertKinds)[number];
/** Kinds a trader cannot switch off: whoever else got in must not be able to silence them. */
export const lockedAlertKinds: readonly AlertKind[] = ['security'];
/** on: a notification with sound; silent: shown without sound or vibration; off: none (the notices screen still lists it). */
export const alertModes = ['on', 'silent', 'off'] as const;
export type AlertMode = (typeof alertModes)[number];
export const defaultAlertModes: Record<AlertKind, AlertMode> = { fills: 'silent', cycles: 'on', pauses: 'on', money: 'on', security: 'on', exchange: 'on' };
