/**
 * The Declarative Web Push message: a JSON notification that the browser shows by itself, with no
 * service worker needed (Safari 18.4+ on a Home Screen app); a browser without the feature hands the same
 * JSON to the service worker's push event. The member names follow WebKit's "Meet Declarative Web Push"
 * (webkit.org/blog/16535) and its parser.
 *
 * Two members sit in two places on purpose. WebKit reads `mutable` and `app_badge` inside `notification`
 * (the badge as a string of digits, as its blog writes it); the W3C Push API draft reads them at the top
 * level (the badge as a number). The message carries both, so either reader finds them; each ignores the
 * members it does not know.
 *
 * WebKit parses `navigate` as an absolute URL, with no base: a bare path would make the message invalid,
 * so a path is resolved against the app's origin here, and a URL of another origin is refused (a
 * notification opens only the app).
 */

/**
 * The largest JSON we send, in UTF-8 bytes. Push services take at most 4,096 bytes of encrypted body
 * (RFC 8030 §7.2); the encryption adds 103 (RFC 8291: an 86-byte header, a 16-byte tag, a delimiter), so
 * 3,993 would fit: 3,000 leaves room for a longer text in another language without a surprise 413.
 */
export const MAX_PAYLOAD_BYTES = 3000;

/** A message we refuse to build or send: a bug of the caller's, not an answer of a push service. */
export class PushSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushSetupError';
  }
}

export interface DeclarativeNotification {
  title: string;
  body: string;
  /** Absolute URL of the app's origin, opened when the notification is tapped. */
  navigate: string;
  lang: string;
  dir: 'auto';
  /** A later notification with the same tag replaces this one on the device. */
  tag?: string;
  silent?: boolean;
  /** The app icon's badge: a non-negative integer written in digits (WebKit). */
  app_badge?: string;
  /** A service worker, if any, may rewrite the notification before it shows (WebKit). */
  mutable: true;
}

export interface DeclarativePush {
  /** The marker that makes a browser read the rest as a declarative message. */
  web_push: 8030;
  notification: DeclarativeNotification;
  /** The badge as the W3C draft places it. */
  app_badge?: number;
  /** `mutable` as the W3C draft places it. */
  mutable: true;
}

export interface NotificationInput {
  title: string;
  body: string;
  /** A path of the app ("/bots/42") or an absolute URL of the app's origin. */
  navigate: string;
  /** BCP 47 language tag of title and body. */
  lang: string;
  badge?: number;
  tag?: string;
  silent?: boolean;
}

/** The declarative message for a notification of the app at `appOrigin` (e.g. "https://app.example"). */
export function declarativePush(input: NotificationInput, appOrigin: string): DeclarativePush {
  if (input.title.trim() === '') throw new PushSetupError('A notification needs a title: WebKit drops a message whose title is empty.');
  const badge = input.badge;
  if (badge !== undefined && !(Number.isSafeInteger(badge) && badge >= 0)) throw new PushSetupError(`The app badge must be a non-negative integer, not ${badge}.`);
  const notification: DeclarativeNotification = {
    title: input.title,
    body: input.body,
    navigate: sameOriginUrl(input.navigate, appOrigin),
    lang: languageTag(input.lang),
    dir: 'auto',
    ...(input.tag === undefined ? {} : { tag: input.tag }),
    ...(input.silent === undefined ? {} : { silent: input.silent }),
    ...(badge === undefined ? {} : { app_badge: String(badge) }),
    mutable: true,
  };
  const message: DeclarativePush = { web_push: 8030, notification, ...(badge === undefined ? {} : { app_badge: badge }), mutable: true };
  encodePayload(message);
  return message;
}

/** The bytes a message is sent as; refuses one over MAX_PAYLOAD_BYTES before anything is sent. */
export function encodePayload(message: DeclarativePush): Buffer {
  const bytes = Buffer.from(JSON.stringify(message), 'utf8');
  if (bytes.length > MAX_PAYLOAD_BYTES) {
    throw new PushSetupError(`The push message is ${bytes.length} bytes, over the ${MAX_PAYLOAD_BYTES} we send: push services refuse an encrypted body over 4,096 bytes.`);
  }
  return bytes;
}

function sameOriginUrl(navigate: string, appOrigin: string): string {
  const origin = appOriginOf(appOrigin);
  let url: URL;
  try {
    url = new URL(navigate, origin);
  } catch {
    throw new PushSetupError(`The notification's link is not a URL: ${navigate}`);
  }
  if (url.origin !== origin) throw new PushSetupError(`A notification opens only the app (${origin}), not ${navigate}`);
  return url.href;
}

function appOriginOf(appOrigin: string): string {
  let url: URL;
  try {
    url = new URL(appOrigin);
  } catch {
    throw new PushSetupError(`The app origin is not a URL: ${appOrigin}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PushSetupError(`The app origin must be http(s): ${appOrigin}`);
  return url.origin;
}

function languageTag(lang: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(lang);
    if (canonical) return canonical;
  } catch {
    // Reported below with the value, as for an empty tag.
  }
  throw new PushSetupError(`The notification's language is not a BCP 47 tag: "${lang}"`);
}
