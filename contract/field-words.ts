import type { z } from 'zod';
import { paramWordsRegistry } from '../strategy/core/param-fields.ts';
import { paramsSchemas } from '../strategy/params.ts';
import { customFieldText } from './custom-fields.ts';

/**
 * A request field as a trader knows it, in zh or en, from the path a refusal names
 * ("params.takeProfit" -> 止盈 / take profit): what a generic error message (1005, 6001, 3120) says after
 * its text instead of the path (no raw field path ever reaches a trader). The words are
 * the screens' own labels. Every field of every call in contract/calls.ts has words here
 * (field-words.test.ts walks the schemas); a custom bot's nested rule fields are named by
 * custom-fields.ts.
 */
type Words = { zh: string; en: string };

/** A bot's parameters (params.*), of every type: a name means the same wherever it appears. */
const paramWords: Record<string, Words> = {
  investment: { zh: '投资金额', en: 'investment' },
  firstOrder: { zh: '首单金额', en: 'first order' },
  multiplier: { zh: '补仓倍数', en: 'multiplier' },
  maxPositions: { zh: '最大持仓数', en: 'max positions' },
  addTrigger: { zh: '补仓跌幅', en: 'add trigger' },
  takeProfit: { zh: '止盈', en: 'take profit' },
  stopLoss: { zh: '止损', en: 'stop loss' },
  repeat: { zh: '止盈后自动开始下一轮', en: 'start the next cycle after a take profit' },
  trailingDeviation: { zh: '追踪止盈回调', en: 'trailing take profit deviation' },
  trailingStop: { zh: '追踪止损', en: 'trailing stop loss' },
  signalsOnly: { zh: '仅外部信号买入', en: 'buy on signals only' },
  lower: { zh: '最低价', en: 'lower price' },
  upper: { zh: '最高价', en: 'upper price' },
  grids: { zh: '网格数量', en: 'number of grids' },
  spacing: { zh: '网格类型', en: 'grid spacing' },
  baseOrder: { zh: '底仓金额', en: 'base order' },
  safetyOrder: { zh: '安全单金额', en: 'safety order' },
  maxSafetyOrders: { zh: '安全单数量', en: 'safety orders' },
  deviation: { zh: '价格偏差', en: 'price deviation' },
  stepScale: { zh: '偏差倍数', en: 'step scale' },
  volumeScale: { zh: '金额倍数', en: 'volume scale' },
  cooldown: { zh: '两单间冷却', en: 'cooldown between deals' },
  start: { zh: '开单条件', en: 'deal start' },
  'start.kind': { zh: '开单条件', en: 'deal start' },
  'start.every': { zh: '开单周期', en: 'how often' },
  'start.weekday': { zh: '星期', en: 'weekday' },
  'start.time': { zh: '时间', en: 'time' },
  'start.utcOffset': { zh: '时区', en: 'time zone' },
  'start.rule': { zh: '开单条件', en: 'deal start' },
};

/** Every other field of the calls (contract/calls.ts), by its path. */
const fieldWords: Record<string, Words> = {
  account: { zh: '账号', en: 'account' },
  action: { zh: '操作', en: 'action' },
  address: { zh: '地址', en: 'address' },
  agreement: { zh: '用户协议', en: 'user agreement' },
  ai: { zh: 'AI 参数', en: 'AI settings' },
  'ai.risk': { zh: '风险偏好', en: 'risk level' },
  all: { zh: '全部', en: 'all' },
  amount: { zh: '金额', en: 'amount' },
  apiKey: { zh: 'API Key', en: 'API key' },
  baseAmount: { zh: '卖出数量', en: 'amount to sell' },
  bot: { zh: '策略', en: 'bot' },
  challenge: { zh: '人机验证', en: 'challenge' },
  code: { zh: '验证码', en: 'code' },
  confirm: { zh: '确认', en: 'confirmation' },
  cycle: { zh: '周期', en: 'cycle' },
  days: { zh: '天数', en: 'days' },
  exchange: { zh: '交易所', en: 'exchange' },
  exchangeId: { zh: '交易账户', en: 'exchange account' },
  field: { zh: '字段', en: 'field' },
  from: { zh: '转出币种', en: 'from' },
  history: { zh: '历史区间', en: 'history' },
  id: { zh: '编号', en: 'id' },
  ids: { zh: '所选策略', en: 'selected bots' },
  indicator: { zh: '指标', en: 'indicator' },
  investment: { zh: '投资金额', en: 'investment' },
  kind: { zh: '类型', en: 'kind' },
  latest: { zh: '最新', en: 'latest' },
  limit: { zh: '数量上限', en: 'limit' },
  local: { zh: '本地', en: 'local' },
  message: { zh: '签名消息', en: 'message' },
  mode: { zh: '模式', en: 'mode' },
  name: { zh: '名称', en: 'name' },
  network: { zh: '网络', en: 'network' },
  old: { zh: '原密码', en: 'current password' },
  otp: { zh: '两步验证码', en: 'two-factor code' },
  page: { zh: '页码', en: 'page' },
  page_size: { zh: '每页条数', en: 'page size' },
  params: { zh: '策略参数', en: 'bot parameters' },
  passphrase: { zh: 'Passphrase', en: 'passphrase' },
  password: { zh: '密码', en: 'password' },
  payPassword: { zh: '支付密码', en: 'payment password' },
  period: { zh: '周期', en: 'period' },
  referrer: { zh: '邀请人', en: 'referrer' },
  requestId: { zh: '请求编号', en: 'request id' },
  risk: { zh: '风险偏好', en: 'risk level' },
  secretKey: { zh: 'Secret Key', en: 'secret key' },
  sell: { zh: '卖出选项', en: 'sell option' },
  share: { zh: '卖出比例', en: 'share to sell' },
  shareRules: { zh: '在排行榜公开参数', en: 'share the parameters on the rank' },
  signature: { zh: '签名', en: 'signature' },
  slippage: { zh: '滑点', en: 'slippage' },
  status: { zh: '状态', en: 'status' },
  symbol: { zh: '交易对', en: 'pair' },
  symbols: { zh: '交易对', en: 'pairs' },
  task_id: { zh: '任务编号', en: 'task id' },
  terminal: { zh: '终端', en: 'terminal' },
  timeframe: { zh: 'K 线周期', en: 'timeframe' },
  to: { zh: '转入币种', en: 'to' },
  txHash: { zh: '交易哈希', en: 'transaction hash' },
  type: { zh: '策略类型', en: 'bot type' },
  tz: { zh: '时区', en: 'time zone' },
  type_id: { zh: '类型', en: 'type' },
  value: { zh: '数值', en: 'value' },
  // The request itself, when Fastify refuses it before its fields are read (server/http/envelope.ts partOf).
  body: { zh: '请求内容', en: 'request body' },
  'body (too large)': { zh: '请求内容（过大）', en: 'request body (too large)' },
  'body (too deep)': { zh: '请求内容（嵌套过深）', en: 'request body (nested too deep)' },
  'content-type': { zh: '请求格式', en: 'content type' },
  'content-length': { zh: '请求长度', en: 'content length' },
  key: { zh: '字段名', en: 'field name' },
  endpoint: { zh: '推送地址', en: 'push endpoint' },
  expirationTime: { zh: '推送订阅有效期', en: 'subscription expiry' },
  keys: { zh: '推送密钥', en: 'push keys' },
  'keys.auth': { zh: '推送密钥', en: 'push keys' },
  'keys.p256dh': { zh: '推送密钥', en: 'push keys' },
  modes: { zh: '通知方式', en: 'alert modes' },
  'modes.fills': { zh: '成交通知', en: 'fill alerts' },
  'modes.cycles': { zh: '周期完成通知', en: 'cycle alerts' },
  'modes.pauses': { zh: '暂停与错误通知', en: 'pause and error alerts' },
  'modes.money': { zh: '资金通知', en: 'money alerts' },
  'modes.security': { zh: '安全通知', en: 'security alerts' },
  'modes.exchange': { zh: '交易所状态通知', en: 'exchange alerts' },
  quiet: { zh: '免打扰时段', en: 'quiet hours' },
  'quiet.from': { zh: '免打扰开始时间', en: 'quiet hours start' },
  'quiet.to': { zh: '免打扰结束时间', en: 'quiet hours end' },
  'quiet.zone': { zh: '时区', en: 'time zone' },
  url: { zh: '网址', en: 'URL' },
};

const generic: Words = { zh: '请求参数', en: 'a request field' };

/**
 * A field that a bot type's own parameters name, in the words its schema carries
 * (`named(schema, words)` in strategy/<type>/params.ts): a new type's fields need no line here.
 */
function typeParamWords(key: string): Words | undefined {
  for (const schema of Object.values(paramsSchemas)) {
    const field = (schema.shape as Record<string, z.ZodType>)[key];
    const words = field ? paramWordsRegistry.get(field) : undefined;
    if (words) return words;
  }
  return undefined;
}

/** A bot parameter's words: the DCA start's nested rule and a custom bot's rule fields by custom-fields.ts. */
function paramText(path: string, lang: 'zh' | 'en'): string {
  const own = paramWords[path] ?? typeParamWords(path);
  if (own) return own[lang];
  if (/^(entry|exit|size)(\.|$)/.test(path)) return customFieldText(path, lang);
  // The DCA start's indicator rule: "start.rule.conditions.0.left.period" -> deal start, condition 1, ...
  const rule = /^start\.rule\.(.+)$/.exec(path);
  if (rule) return `${paramWords.start![lang]}${lang === 'zh' ? ' ' : ', '}${customFieldText(rule[1]!, lang)}`;
  return customFieldText(path, lang);
}

/**
 * The words of a field path: "params.takeProfit" -> 止盈, "symbol" -> 交易对, a list of keys
 * ("a,b", an unknown field) -> each named, anything unknown -> 请求参数 / a request field. Never the path.
 */
export function fieldText(path: string, lang: 'zh' | 'en'): string {
  if (path === 'params') return fieldWords.params![lang];
  if (path.startsWith('params.')) return paramText(path.slice('params.'.length), lang);
  if (path.includes(',')) return [...new Set(path.split(',').map((p) => fieldText(p, lang)))].join(lang === 'zh' ? '、' : ', ');
  const own = fieldWords[path] ?? fieldWords[path.replace(/\.\d+$/, '')];
  if (own) return own[lang];
  // A nested field of a call ("ids.3", "ai.risk.x"): the words of its nearest named parent.
  const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
  return parent ? fieldText(parent, lang) : generic[lang];
}
