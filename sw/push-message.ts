/**
 * What a push message becomes on screen, as pure functions (sw/push.ts runs them in the worker).
 *
 * The server sends a Declarative Web Push message (server/push/payload.ts): `{ web_push: 8030,
 * notification: { title, body, navigate, lang, dir, tag?, silent?, app_badge?, mutable }, app_badge?,
 * mutable }`. A browser that shows such messages by itself never wakes the worker for them; every other
 * one hands the JSON to the push event, where it is shown here. A flat message (`{ title, body,
 * navigate | url, ... }`, as simpler senders write) is accepted too. Anything else still shows a
 * notification: Safari revokes the permission of a site whose pushes show nothing.
 */

/** The app icon of the web app manifest (vite.config.ts), shown beside the text. */
export const NOTIFICATION_ICON = '/icons/icon-192.png';
/** The small monochrome mark Android shows in the status bar (its alpha only); without it, a browser's own. */
export const NOTIFICATION_BADGE = '/icons/badge-96.png';

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { data: { navigate: string } };
  /** The app icon's badge to set (0: clear it); undefined leaves it as it is. */
  appBadge?: number;
}

/** The texts of the notification shown for a message that cannot be read. */
export interface FallbackTexts {
  title: string;
  body: string;
}

/** zh is the app's default language: the texts for a message that cannot be read. */
export const FALLBACK: FallbackTexts = { title: 'QuantBot', body: '打开应用查看' };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A badge as either place writes it (a number at the top, digits inside `notification`); anything else is none. */
function badgeOf(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The link a tap opens: a URL of the app's origin (a path is taken relative to it), else the app's
 * start. A message must never open another site.
 */
export function sameOriginTarget(navigate: unknown, origin: string): string {
  const home = new URL('/', origin).href;
  if (typeof navigate !== 'string' || navigate === '') return home;
  try {
    const url = new URL(navigate, origin);
    return url.origin === new URL(origin).origin ? url.href : home;
  } catch {
    return home;
  }
}

/** The notification for a push message's text (null: the message had no data), for an app at `origin`. */
export function notificationFor(raw: string | null, origin: string, fallback: FallbackTexts = FALLBACK): ShownNotification {
  let message: unknown;
  try {
    message = raw === null ? null : JSON.parse(raw);
  } catch {
    message = null;
  }
  // The declarative shape's notification, or the flat message itself.
  const n = isObject(message) ? (message.web_push === 8030 && isObject(message.notification) ? message.notification : message) : null;
  const title = n ? text(n.title)?.trim() : undefined;
  if (!n || !title) {
    return { title: fallback.title, options: { body: fallback.body, icon: NOTIFICATION_ICON, badge: NOTIFICATION_BADGE, data: { navigate: sameOriginTarget('/', origin) } } };
  }
  const options: ShownNotification['options'] = {
    body: text(n.body) ?? '',
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE,
    data: { navigate: sameOriginTarget(n.navigate ?? n.url, origin) },
  };
  const tag = text(n.tag);
  if (tag) options.tag = tag;
  if (typeof n.silent === 'boolean') options.silent = n.silent;
  const lang = text(n.lang);
  if (lang) options.lang = lang;
  if (n.dir === 'auto' || n.dir === 'ltr' || n.dir === 'rtl') options.dir = n.dir;
  // The top-level badge (W3C draft) first, then the one inside the notification (WebKit), then a flat message's.
  const appBadge = badgeOf(isObject(message) ? message.app_badge : undefined) ?? badgeOf(n.app_badge) ?? badgeOf(n.badge);
  return { title, options, ...(appBadge === undefined ? {} : { appBadge }) };
}
