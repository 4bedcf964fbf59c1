/// <reference lib="webworker" />
/**
 * Alerts when the app is closed: the push event shows the notification the message describes
 * (push-message.ts) and sets the app icon's badge; a tap on it opens the app at the message's link,
 * in a window of the app already open when there is one.
 */
import { notificationFor, sameOriginTarget } from './push-message.ts';

declare const self: ServiceWorkerGlobalScope;

/** Sets or clears the app icon's badge where the browser has the Badging API; a refusal (not installed) costs nothing. */
async function setBadge(count: number): Promise<void> {
  const nav = self.navigator as WorkerNavigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
  try {
    if (count === 0) await nav.clearAppBadge?.();
    else await nav.setAppBadge?.(count);
  } catch {
    // The notification matters, the badge does not.
  }
}

/** The message's text; null when it has none or it cannot be read as text. */
function dataText(event: PushEvent): string | null {
  try {
    return event.data?.text() ?? null;
  } catch {
    return null;
  }
}

self.addEventListener('push', (event) => {
  const shown = notificationFor(dataText(event), self.location.origin);
  // Every push shows a notification, whatever it carried: a push that shows nothing costs the permission on Safari.
  event.waitUntil(Promise.all([self.registration.showNotification(shown.title, shown.options), shown.appBadge === undefined ? undefined : setBadge(shown.appBadge)]));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Checked again here, not only when shown: any page of the origin can show a notification with data of its own.
  const target = sameOriginTarget((event.notification.data as { navigate?: unknown } | null)?.navigate, self.location.origin);
  event.waitUntil(openApp(target));
});

/** Focuses a window of the app and takes it to `target`, else opens one there (the shell answers any path, offline too). */
async function openApp(target: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((c) => new URL(c.url).origin === self.location.origin);
  if (open) {
    const focused = await open.focus();
    // navigate() fails on a window the worker does not control (a first visit): then open one anew.
    if ((await focused.navigate(target).catch(() => null)) !== null) return;
  }
  await self.clients.openWindow(target);
}
