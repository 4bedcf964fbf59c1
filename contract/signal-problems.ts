/**
 * What was wrong with a refused webhook alert, as stored on the bot (`refusedReason`) and said in the
 * answer: a short code, `kind` or `kind:field`, and its words in zh and en, for the webhook's answer (in
 * the language its owner made it in) and the webhook panel. An alert is a JSON object with `action`
 * (buy, sell or close) and `id`, and optionally `price`, `amount` (numbers) and `note` (200 characters).
 *
 * - `json`: not JSON at all; `object`: JSON, but not an object;
 * - `unknown:<names>`: fields an alert does not have (a misspelt or extra one);
 * - `missing:<field>`: action or id left out;
 * - `action`: an action other than buy, sell or close;
 * - `id`: an id that is not 1-64 visible characters;
 * - `number:<field>`: a price or amount that is not a plain number;
 * - `note`: a note over 200 characters;
 * - `field:<field>`: any other value of the wrong kind.
 */
export function signalProblemWords(reason: string, lang: 'zh' | 'en'): string {
  const [kind, field = ''] = splitOnce(reason);
  const zh = lang === 'zh';
  switch (kind) {
    case 'json':
      return zh ? '不是 JSON' : 'not JSON';
    case 'object':
      return zh ? '不是 JSON 对象' : 'not a JSON object';
    case 'unknown':
      return zh ? `没有这个字段：${field}` : `no such field: ${field}`;
    case 'missing':
      return zh ? `缺少 ${field}` : `${field} is missing`;
    case 'action':
      return zh ? 'action 只能是 buy、sell 或 close' : 'action must be buy, sell or close';
    case 'id':
      return zh ? 'id 须为 1-64 个可见字符' : 'id must be 1-64 visible characters';
    case 'number':
      return zh ? `${field} 不是数字` : `${field} is not a number`;
    case 'note':
      return zh ? 'note 超过 200 个字符' : 'note is longer than 200 characters';
    case 'field':
      return zh ? `${field} 的值不对` : `${field} has a wrong value`;
    default:
      return reason;
  }
}

function splitOnce(reason: string): [string, string | undefined] {
  const at = reason.indexOf(':');
  return at < 0 ? [reason, undefined] : [reason.slice(0, at), reason.slice(at + 1)];
}
