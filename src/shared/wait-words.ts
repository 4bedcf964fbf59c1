import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';

/**
 * A wait the operator configured (WITHDRAW_LOCK_HOURS), as a trader reads it: "24 小时" / "24 hours",
 * "30 分钟" / "30 minutes", "7 秒" / "7 seconds"; a fraction of an hour or minute to one decimal.
 */
export function waitWords(ms: number, i18n: I18n): string {
  const one = (x: number) => String(Math.round(x * 10) / 10);
  if (ms >= 3_600_000) {
    const hours = one(ms / 3_600_000);
    return i18n._(msg`${hours} 小时`);
  }
  if (ms >= 60_000) {
    const minutes = one(ms / 60_000);
    return i18n._(msg`${minutes} 分钟`);
  }
  const seconds = String(Math.max(0, Math.round(ms / 1000)));
  return i18n._(msg`${seconds} 秒`);
}
