import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_BYTES, PushSetupError, declarativePush, encodePayload } from './payload.ts';

const APP = 'https://app.example';
const fill = { title: 'Order filled', body: 'BTC/USDT bought 0.01 at 61,200', navigate: '/bots/42', lang: 'en' };

describe('the declarative push message', () => {
  it("has the members of WebKit's format: web_push 8030, the notification with an absolute link, dir auto, mutable", () => {
    expect(declarativePush({ ...fill, tag: 'bot-42', silent: false, badge: 3 }, APP)).toEqual({
      web_push: 8030,
      notification: {
        title: 'Order filled',
        body: 'BTC/USDT bought 0.01 at 61,200',
        navigate: 'https://app.example/bots/42',
        lang: 'en',
        dir: 'auto',
        tag: 'bot-42',
        silent: false,
        app_badge: '3',
        mutable: true,
      },
      app_badge: 3,
      mutable: true,
    });
  });

  it('leaves out tag, silent and the badge when not given', () => {
    const message = declarativePush(fill, APP);
    expect(Object.keys(message.notification).sort()).toEqual(['body', 'dir', 'lang', 'mutable', 'navigate', 'title']);
    expect('app_badge' in message).toBe(false);
  });

  it('writes a badge of 0 (which clears the badge) as the string "0"', () => {
    expect(declarativePush({ ...fill, badge: 0 }, APP).notification.app_badge).toBe('0');
  });

  it('refuses a negative or fractional badge', () => {
    expect(() => declarativePush({ ...fill, badge: -1 }, APP)).toThrow(PushSetupError);
    expect(() => declarativePush({ ...fill, badge: 1.5 }, APP)).toThrow(/non-negative integer/);
  });

  it('keeps an absolute link of the app origin and its query', () => {
    expect(declarativePush({ ...fill, navigate: 'https://app.example/bots/42?tab=orders' }, APP).notification.navigate).toBe('https://app.example/bots/42?tab=orders');
  });

  it.each(['https://evil.example/bots/42', '//evil.example/bots/42', 'http://app.example/bots/42', 'https://app.example:8443/x', 'javascript:alert(1)'])(
    'refuses a link that leaves the app: %s',
    (navigate) => {
      expect(() => declarativePush({ ...fill, navigate }, APP)).toThrow(/opens only the app/);
    },
  );

  it('refuses an empty title and a language that is not a BCP 47 tag', () => {
    expect(() => declarativePush({ ...fill, title: ' ' }, APP)).toThrow(/needs a title/);
    expect(() => declarativePush({ ...fill, lang: 'not a tag' }, APP)).toThrow(/BCP 47/);
  });

  it(`refuses a message over ${MAX_PAYLOAD_BYTES} bytes, counting UTF-8 bytes, not characters`, () => {
    // 1,000 Chinese characters are 3,000 bytes in UTF-8: with the rest of the message, over the limit.
    expect(() => declarativePush({ ...fill, lang: 'zh', body: '买'.repeat(1000) }, APP)).toThrow(/bytes, over the 3000/);
    const fits = declarativePush({ ...fill, body: 'x'.repeat(2700) }, APP);
    expect(encodePayload(fits).length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
  });
});
