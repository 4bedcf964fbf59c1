/** Alerts when the app is closed: Web Push per device, an outgoing webhook per account, and what each kind does. */
import { z } from 'zod';
import type { Call } from './call.ts';
import { alertKinds, alertModes, type AlertKind } from './alert-kinds.ts';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
/** An IANA time zone the browser reports (Asia/Shanghai); checked by the server against the zones it knows. */
const zone = z.string().min(1).max(64);
/** Quiet hours: from `from` to `to` in `zone` (across midnight when to < from), notifications arrive silent. */
export const quietSchema = z.strictObject({ from: hhmm, to: hhmm, zone });
export type Quiet = z.infer<typeof quietSchema>;

const modes = z.strictObject(Object.fromEntries(alertKinds.map((k) => [k, z.enum(alertModes)])) as { [K in AlertKind]: z.ZodEnum<{ on: 'on'; silent: 'silent'; off: 'off' }> });

/** What the trader set, and where alerts go. The webhook's secret is never answered again after it is made. */
export const alertSettingsSchema = z.strictObject({
  modes,
  quiet: quietSchema.nullable(),
  /** Devices of this account subscribed to pushes. */
  devices: z.number().int().nonnegative(),
  /** Whether this device (its subscription endpoint, when the query names one) is subscribed. */
  thisDevice: z.boolean(),
  webhook: z.strictObject({ url: z.string() }).nullable(),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/** A push service's endpoint: an https URL (a pattern, so the OpenAPI document states the same rule). */
const endpoint = z
  .string()
  .regex(/^https:\/\/[^\s/?#]+\/\S*$/)
  .max(1000);
const base64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]+={0,2}$/)
  .max(200);

export const alertCalls = {
  alertSettings: {
    method: 'GET',
    path: '/alert/settings',
    query: z.strictObject({ endpoint: endpoint.optional() }),
    answer: alertSettingsSchema,
  },
  alertSettingsSet: {
    method: 'POST',
    path: '/alert/settings',
    changes: ['alertSettings'],
    body: z.strictObject({ modes: modes.partial().optional(), quiet: quietSchema.nullable().optional() }),
    answer: alertSettingsSchema,
  },
  /** The server's VAPID public key (base64url), for PushManager.subscribe's applicationServerKey. */
  alertPushKey: { method: 'GET', path: '/alert/pushKey', answer: z.strictObject({ publicKey: z.string() }) },
  /** This device's push subscription (PushSubscription.toJSON()), tied to this session: a logout deletes it. */
  alertSubscribe: {
    method: 'POST',
    path: '/alert/subscribe',
    changes: ['alertSettings'],
    body: z.strictObject({
      endpoint,
      expirationTime: z.number().nullable().optional(),
      keys: z.strictObject({ p256dh: base64url, auth: base64url }),
    }),
    answer: z.null(),
  },
  alertUnsubscribe: { method: 'POST', path: '/alert/unsubscribe', changes: ['alertSettings'], body: z.strictObject({ endpoint }), answer: z.null() },
  /** Sends a test alert to every device and the webhook of the account; answers how many were handed over. */
  // A device the push service says is gone is deleted on the way: the device count may change.
  alertTest: {
    method: 'POST',
    path: '/alert/test',
    changes: ['alertSettings'],
    screen: true,
    body: z.strictObject({}).optional(),
    answer: z.strictObject({ devices: z.number().int(), webhook: z.boolean() }),
  },
  /** Sets the account's webhook; answers its signing secret, this once. */
  alertWebhookSet: {
    method: 'POST',
    path: '/alert/webhook',
    changes: ['alertSettings'],
    screen: true,
    body: z.strictObject({ url: z.string().min(1).max(2000) }),
    answer: z.strictObject({ url: z.string(), secret: z.string() }),
  },
  alertWebhookDelete: { method: 'POST', path: '/alert/webhook/delete', changes: ['alertSettings'], body: z.strictObject({}).optional(), answer: z.null() },
} as const satisfies Record<string, Call>;
