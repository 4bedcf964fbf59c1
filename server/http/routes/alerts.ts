import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.ts';
import { alertSettings, deleteWebhook, queueTest, setAlertSettings, setWebhook, subscribe, unsubscribe, vapidKeys } from '../../alerts/settings.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { WebhookPolicy } from '../../webhooks/check-url.ts';
import { registerCalls } from '../route.ts';

/**
 * Test alerts one trader may ask for in ten minutes: each goes to every device and the webhook, so a
 * script must not turn the server into a sender of pushes and webhook calls at will.
 */
export const ALERT_TEST_LIMIT = { max: 5, windowMs: 600_000 };

/** Alerts when the app is closed: settings, this device's push subscription, a test, the webhook. */
export function alertRoutes(app: FastifyInstance, deps: { db: Db; box: SecretBox; webhookPolicy: WebhookPolicy }): void {
  const { db, box } = deps;
  registerCalls(app, db, {
    alertSettings: ({ session, query }) => alertSettings(db, session.userId, query.endpoint),
    alertSettingsSet: ({ session, body }) => setAlertSettings(db, session.userId, body),
    alertPushKey: async () => ({ publicKey: (await vapidKeys(db, box)).publicKey }),
    alertSubscribe: async ({ session, body, lang }) => {
      await subscribe(db, session, body, lang);
      return null;
    },
    alertUnsubscribe: async ({ session, body }) => {
      await unsubscribe(db, session.userId, body.endpoint);
      return null;
    },
    alertTest: async ({ session }) => {
      if (app.hasDecorator('countLimit')) await app.countLimit(`alert-test:${session.userId}`, ALERT_TEST_LIMIT);
      return queueTest(db, session.userId);
    },
    alertWebhookSet: ({ session, body, lang }) => setWebhook(db, box, session.userId, body.url, lang, deps.webhookPolicy),
    alertWebhookDelete: async ({ session }) => {
      await deleteWebhook(db, session.userId);
      return null;
    },
  });
}
