import type { Language } from '../../contract/envelope.ts';
import type { Banner } from '../../contract/market.ts';

/** The home banners (GET /api/index/banners): what the product wants traders to try next, in zh and en. */
const banners: { id: string; link: string; tone: Banner['tone']; title: Record<Language, string>; subtitle: Record<Language, string> }[] = [
  {
    id: 'simulate-first',
    link: '/simulation',
    tone: 'blue',
    title: { zh: '先模拟，再实盘', en: 'Simulate first, then go live' },
    subtitle: { zh: '用虚拟资金跑同一套策略，零风险验证参数', en: 'Run the same strategy on virtual funds and prove your settings risk-free' },
  },
  {
    id: 'invite',
    link: '/referral',
    tone: 'green',
    title: { zh: '邀请好友，共享收益', en: 'Invite friends, share the rewards' },
    subtitle: { zh: '好友支付的燃料费，你可获得分成奖励', en: 'Earn a share of the fuel fees your team pays' },
  },
  {
    id: 'deposit',
    link: '/my/deposit',
    tone: 'orange',
    title: { zh: '充值 USDT，燃料不断', en: 'Top up USDT, keep the fuel flowing' },
    subtitle: { zh: 'BSC (BEP20) 链上充值，确认后自动到账', en: 'Deposit on BSC (BEP20); credited automatically once confirmed' },
  },
];

export function bannerList(lang: Language): Banner[] {
  return banners.map((b) => ({ id: b.id, link: b.link, tone: b.tone, title: b.title[lang], subtitle: b.subtitle[lang] }));
}
