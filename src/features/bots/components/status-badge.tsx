import { useLingui } from '@lingui/react/macro';
import type { BotStatus } from '../../../../contract/bots.ts';
import { statusLabels } from '../labels.ts';
import * as css from '../../../shared/blocks.css.ts';

export function StatusBadge({ status }: { status: BotStatus }) {
  const { i18n } = useLingui();
  return (
    <span className={css.badge[status]} data-status={status}>
      {i18n._(statusLabels[status])}
    </span>
  );
}
