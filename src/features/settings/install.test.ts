import { describe, expect, it } from 'vitest';
import { installWay, promptInstall, type InstallPromptEvent } from './install.ts';

const win = (ua: string, options: { standalone?: boolean; prompt?: InstallPromptEvent; touch?: number } = {}) =>
  ({
    matchMedia: (q: string) => ({ matches: q.includes('standalone') && options.standalone === true }),
    navigator: { userAgent: ua, maxTouchPoints: options.touch ?? 0 },
    __installPrompt: options.prompt ?? null,
  }) as unknown as Window;

const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36';
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';

describe('the install entry', () => {
  it('picks the way the browser offers', () => {
    const event = { prompt: async () => undefined, userChoice: Promise.resolve({ outcome: 'accepted' as const }) } as InstallPromptEvent;
    expect(installWay(win(android, { prompt: event }))).toBe('prompt');
    expect(installWay(win(android))).toBe('menu');
    expect(installWay(win(iphone))).toBe('ios');
    expect(installWay(win('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15', { touch: 5 }))).toBe('ios');
    expect(installWay(win(`${android} TokenPocket/2.1`, { prompt: event }))).toBe('wallet');
    expect(installWay(win(`${iphone} MetaMaskMobile`))).toBe('wallet');
    expect(installWay(win(android, { standalone: true }))).toBe('installed');
  });

  it('uses the browser prompt once', async () => {
    let shown = 0;
    const event = { prompt: async () => void shown++, userChoice: Promise.resolve({ outcome: 'accepted' as const }) } as unknown as InstallPromptEvent;
    const w = win(android, { prompt: event });
    expect(await promptInstall(w)).toBe(true);
    expect(await promptInstall(w)).toBe(false);
    expect(shown).toBe(1);
  });
});
