import { describe, expect, it } from 'vitest';
import { FALLBACK, NOTIFICATION_BADGE, NOTIFICATION_ICON, notificationFor, sameOriginTarget } from './push-message.ts';

const origin = 'https://app.example';

/** What server/push/payload.ts sends for a filled order with a badge of 3. */
const declarative = {
  web_push: 8030,
  notification: {
    title: '成交：BTC/USDT',
    body: '买入 0.01 @ 60000',
    navigate: 'https://app.example/strategy/detail/42',
    lang: 'zh-CN',
    dir: 'auto',
    tag: 'bot-42',
    silent: true,
    app_badge: '3',
    mutable: true,
  },
  app_badge: 3,
  mutable: true,
};

describe('a push message becomes a notification', () => {
  it('shows the declarative message with its text, link, tag, silence, language and badge', () => {
    expect(notificationFor(JSON.stringify(declarative), origin)).toEqual({
      title: '成交：BTC/USDT',
      options: {
        body: '买入 0.01 @ 60000',
        icon: NOTIFICATION_ICON,
        badge: NOTIFICATION_BADGE,
        data: { navigate: 'https://app.example/strategy/detail/42' },
        tag: 'bot-42',
        silent: true,
        lang: 'zh-CN',
        dir: 'auto',
      },
      appBadge: 3,
    });
  });

  it('reads the badge inside the notification (WebKit) when the top-level one is missing, and 0 clears it', () => {
    const { app_badge: _, ...message } = declarative;
    expect(notificationFor(JSON.stringify(message), origin).appBadge).toBe(3);
    expect(notificationFor(JSON.stringify({ ...declarative, app_badge: 0 }), origin).appBadge).toBe(0);
    const noBadge = { web_push: 8030, notification: { title: 't', body: 'b', navigate: `${origin}/` } };
    expect('appBadge' in notificationFor(JSON.stringify(noBadge), origin)).toBe(false);
  });

  it('shows a flat message (title, body, url, badge) too, its path taken from the app origin', () => {
    const shown = notificationFor(JSON.stringify({ title: 'Deposit', body: '100 USDT', url: '/my/asset/usdt', badge: 2 }), origin);
    expect(shown.title).toBe('Deposit');
    expect(shown.options.body).toBe('100 USDT');
    expect(shown.options.data.navigate).toBe('https://app.example/my/asset/usdt');
    expect(shown.appBadge).toBe(2);
  });

  it('shows the generic notification for bad JSON, no data, no title or a non-object, never throwing', () => {
    const generic = { title: FALLBACK.title, options: { body: FALLBACK.body, icon: NOTIFICATION_ICON, badge: NOTIFICATION_BADGE, data: { navigate: 'https://app.example/' } } };
    for (const raw of ['{not json', null, '', '42', '[]', 'null', JSON.stringify({ web_push: 8030, notification: { body: 'no title' } }), JSON.stringify({ title: '   ' })]) {
      expect(notificationFor(raw, origin), String(raw)).toEqual(generic);
    }
  });

  it('ignores a badge that is not a non-negative integer', () => {
    for (const badge of [-1, 1.5, 'x', '3a', null]) expect(notificationFor(JSON.stringify({ title: 't', app_badge: badge }), origin).appBadge).toBeUndefined();
  });
});

describe('the link a tap opens', () => {
  it('is a URL or path of the app origin, else the app start', () => {
    expect(sameOriginTarget('https://app.example/notice/list?x=1', origin)).toBe('https://app.example/notice/list?x=1');
    expect(sameOriginTarget('/strategy/detail/7', origin)).toBe('https://app.example/strategy/detail/7');
    expect(sameOriginTarget('https://evil.example/phish', origin)).toBe('https://app.example/');
    expect(sameOriginTarget('//evil.example/x', origin)).toBe('https://app.example/');
    expect(sameOriginTarget('http://app.example/x', origin)).toBe('https://app.example/'); // another scheme is another origin
    expect(sameOriginTarget('javascript:alert(1)', origin)).toBe('https://app.example/');
    expect(sameOriginTarget(undefined, origin)).toBe('https://app.example/');
    expect(sameOriginTarget(42, origin)).toBe('https://app.example/');
  });
});
