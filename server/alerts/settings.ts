import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { alertKinds, type AlertKind, type AlertMode, defaultAlertModes, lockedAlertKinds } from '../../contract/alert-kinds.ts';
import type { AlertSettings, Quiet } from '../../contract/alerts.ts';
import type { Language } from '../../contract/envelope.ts';
import type { Db } from '../db/connect.ts';
import { fail, InputError } from '../errors.ts';
import { headOf } from '../events/log.ts';
import { generateVapidKeys } from '../push/vapid.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { checkWebhookUrl, type WebhookPolicy } from '../webhooks/check-url.ts';

/** A trader's devices that may be subscribed at once: one per browser of the sessions they may hold, and some. */
export const MAX_DEVICES = 20;

/** The key pair as this process read it: it never changes once made, so each send need not read and unseal it. */
const vapidRead = new WeakMap<Db, Promise<{ publicKey: string; privateKey: string }>>();

/** The server's VAPID key pair: made once by whichever process asks first, the same for every process. */
export function vapidKeys(db: Db, box: SecretBox): Promise<{ publicKey: string; privateKey: string }> {
  let read = vapidRead.get(db);
  if (!read) {
    read = readVapidKeys(db, box);
    vapidRead.set(db, read);
    read.catch(() => vapidRead.delete(db));
  }
  return read;
}

async function readVapidKeys(db: Db, box: SecretBox): Promise<{ publicKey: string; privateKey: string }> {
  let row = await db.selectFrom('push_keys').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row) {
    const made = generateVapidKeys();
    await db
      .insertInto('push_keys')
      .values({ id: 1, public_key: made.publicKey, private_sealed: box.seal(made.privateKey, 'vapid') })
      .onConflict((c) => c.column('id').doNothing())
      .execute();
    row = await db.selectFrom('push_keys').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  }
  return { publicKey: row.public_key, privateKey: box.open(row.private_sealed, 'vapid') };
}

/** The modes a user set, over the defaults; locked kinds always on. */
export function modesOf(stored: unknown): Record<AlertKind, AlertMode> {
  const set = (stored && typeof stored === 'object' ? stored : {}) as Partial<Record<AlertKind, AlertMode>>;
  const modes = { ...defaultAlertModes };
  for (const k of alertKinds) if (set[k] && !lockedAlertKinds.includes(k)) modes[k] = set[k];
  return modes;
}

/**
 * Starts following the user's events for alerts from now (their first device or webhook): what happened
 * before is on the notices screen, not pushed.
 */
async function followFromNow(db: Db, userId: string): Promise<void> {
  await db
    .insertInto('alert_cursors')
    .values({ user_id: userId, seq: await headOf(db, userId) })
    .onConflict((c) => c.column('user_id').doNothing())
    .execute();
}

export async function alertSettings(db: Db, userId: string, endpoint?: string): Promise<AlertSettings> {
  const [row, devices, mine] = await Promise.all([
    db.selectFrom('alert_settings').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('push_subscriptions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    endpoint ? db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst() : undefined,
  ]);
  return {
    modes: modesOf(row?.modes),
    quiet: (row?.quiet as Quiet | null | undefined) ?? null,
    devices: Number(devices.n),
    thisDevice: mine !== undefined,
    webhook: row?.webhook_url ? { url: row.webhook_url } : null,
  };
}

const knownZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export async function setAlertSettings(db: Db, userId: string, change: { modes?: Partial<Record<AlertKind, AlertMode>> | undefined; quiet?: Quiet | null | undefined }): Promise<AlertSettings> {
  if (change.modes) {
    for (const k of lockedAlertKinds) {
      if (change.modes[k] !== undefined && change.modes[k] !== 'on') throw new InputError('ValidationError', `modes.${k}`, { zh: '安全提醒无法关闭', en: 'security alerts cannot be switched off' });
    }
  }
  if (change.quiet && !knownZone(change.quiet.zone)) throw new InputError('ValidationError', 'quiet.zone', { zh: '时区', en: 'time zone' });
  const current = await db.selectFrom('alert_settings').select(['modes']).where('user_id', '=', userId).executeTakeFirst();
  const modes = { ...((current?.modes as object | undefined) ?? {}), ...(change.modes ?? {}) };
  await db
    .insertInto('alert_settings')
    .values({ user_id: userId, modes: JSON.stringify(modes), ...(change.quiet !== undefined ? { quiet: change.quiet ? JSON.stringify(change.quiet) : null } : {}) })
    .onConflict((c) =>
      c.column('user_id').doUpdateSet({
        modes: JSON.stringify(modes),
        ...(change.quiet !== undefined ? { quiet: change.quiet ? JSON.stringify(change.quiet) : null } : {}),
      }),
    )
    .execute();
  return alertSettings(db, userId);
}

/** Subscribes this device (its endpoint moves to this user and session if it was another's: one browser, one owner). */
export async function subscribe(db: Db, session: { userId: string; sessionId: string }, sub: { endpoint: string; keys: { p256dh: string; auth: string } }, lang: Language): Promise<void> {
  const { n } = await db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', session.userId)
    .where('endpoint', '!=', sub.endpoint)
    .executeTakeFirstOrThrow();
  if (Number(n) >= MAX_DEVICES) throw fail('RateLimited');
  await db
    .insertInto('push_subscriptions')
    .values({ user_id: session.userId, session_id: session.sessionId, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, lang })
    .onConflict((c) => c.column('endpoint').doUpdateSet({ user_id: session.userId, session_id: session.sessionId, p256dh: sub.keys.p256dh, auth: sub.keys.auth, lang }))
    .execute();
  await followFromNow(db, session.userId);
}

export async function unsubscribe(db: Db, userId: string, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
}

/** Sets the account's webhook and answers its new signing secret, this once (stored sealed). */
export async function setWebhook(db: Db, box: SecretBox, userId: string, url: string, lang: Language, policy: WebhookPolicy): Promise<{ url: string; secret: string }> {
  const checked = checkWebhookUrl(url, policy);
  if (!checked.ok) throw new InputError('ValidationError', 'url', webhookRefusal[checked.reason] ?? webhookRefusal.syntax);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const sealed = box.seal(secret, `webhook:${userId}`);
  const clean = checked.url.toString();
  await db
    .insertInto('alert_settings')
    .values({ user_id: userId, webhook_url: clean, webhook_sealed: sealed, lang })
    .onConflict((c) => c.column('user_id').doUpdateSet({ webhook_url: clean, webhook_sealed: sealed, lang }))
    .execute();
  await followFromNow(db, userId);
  return { url: clean, secret };
}

export async function deleteWebhook(db: Db, userId: string): Promise<void> {
  await db.updateTable('alert_settings').set({ webhook_url: null, webhook_sealed: null }).where('user_id', '=', userId).execute();
}

/** The words of a refused webhook address, named like a field in the validation message. */
const webhookRefusal: Record<string, Record<Language, string>> = {
  length: { zh: '网址过长', en: 'URL too long' },
  syntax: { zh: '网址格式不正确', en: 'not a valid URL' },
  scheme: { zh: '网址须以 https:// 开头', en: 'URL must start with https://' },
  credentials: { zh: '网址不能包含用户名或密码', en: 'URL must not contain a user name or password' },
  port: { zh: '端口只能是 443、80、8443 或 8080', en: 'port must be 443, 80, 8443 or 8080' },
  host: { zh: '网址须为公网域名', en: 'URL must name a public host' },
  private: { zh: '网址不能指向内网或本机地址', en: 'URL must not point to a private or local address' },
  redirects: { zh: '重定向过多', en: 'too many redirects' },
};

/** Queues a test alert for every device and the webhook of the user; answers what it will reach. */
export async function queueTest(db: Db, userId: string): Promise<{ devices: number; webhook: boolean }> {
  const settings = await alertSettings(db, userId);
  if (settings.devices === 0 && !settings.webhook) return { devices: 0, webhook: false };
  await db
    .insertInto('alert_outbox')
    .values({ user_id: userId, topic: 'test', kind: 'test', data: JSON.stringify({}), send_after: new Date() })
    .onConflict((c) => c.columns(['user_id', 'topic']).doUpdateSet({ send_after: sql`now()` }))
    .execute();
  return { devices: settings.devices, webhook: settings.webhook !== null };
}
