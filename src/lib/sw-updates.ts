import { msg } from '@lingui/core/macro';
import { Workbox } from 'workbox-window';
import { i18n } from './i18n.ts';
import { showToast } from './toast.ts';

/**
 * Watches for a new version of the app: when a new service worker is installed and waiting,
 * a toast offers to reload; a tap lets it take over and reloads every open page at once, so the app
 * never runs half old and half new. Loaded with the HTTP client (not in the entry); the worker itself
 * is registered by public/boot.js once the first screen is up, and this waits for it (not to install
 * it, with its precache, while that screen still loads).
 */
let started = false;

export function watchUpdates(): void {
  if (started || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  started = true;
  const wb = new Workbox('/sw.js');
  // Whichever tab the trader tapped in, every open tab moves to the new version together.
  wb.addEventListener('controlling', (event) => {
    if (event.isUpdate) window.location.reload();
  });
  wb.addEventListener('waiting', () => {
    showToast('info', i18n._(msg`新版本已就绪，点此刷新`), () => wb.messageSkipWaiting());
  });
  void navigator.serviceWorker.ready.then(() => wb.register()).catch(() => undefined);
}
