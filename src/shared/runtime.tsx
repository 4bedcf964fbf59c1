import { useLingui } from '@lingui/react/macro';

const DAY = 86_400;

/** A runtime as "3天4小时" / "3d 4h" (minutes under an hour). */
export function Runtime({ seconds }: { seconds: number }) {
  const { t } = useLingui();
  const d = Math.floor(seconds / DAY);
  const h = Math.floor((seconds % DAY) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (seconds <= 0) return <>—</>;
  if (d > 0) return <>{t`${d}天${h}小时`}</>;
  if (h > 0) return <>{t`${h}小时${m}分`}</>;
  return <>{t`${m}分钟`}</>;
}
