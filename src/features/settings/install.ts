/**
 * Installing the app to the home screen: the browser's own prompt where it offers one
 * (public/boot.js keeps its `beforeinstallprompt` event, which fires once, early), else the steps for
 * the browser the trader is in.
 */
import { isIos, isStandalone, isWalletBrowser } from '../../lib/platform.ts';

export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export type InstallWay = 'installed' | 'prompt' | 'ios' | 'wallet' | 'menu';

declare global {
  interface Window {
    __installPrompt?: InstallPromptEvent | null;
  }
}

/** Which way of installing this browser offers. */
export function installWay(win: Window = window): InstallWay {
  if (isStandalone(win)) return 'installed';
  if (isWalletBrowser(win.navigator.userAgent)) return 'wallet'; // in-app browsers install nothing: open the page in the system browser first
  // iOS browsers never prompt: Add to Home Screen from Safari's share sheet is the only way.
  if (isIos(win)) return 'ios';
  if (win.__installPrompt) return 'prompt';
  return 'menu';
}

/** Shows the browser's install prompt; true when the trader accepted. The event can be used once. */
export async function promptInstall(win: Window = window): Promise<boolean> {
  const event = win.__installPrompt;
  if (!event) return false;
  win.__installPrompt = null;
  await event.prompt();
  return (await event.userChoice).outcome === 'accepted';
}
