import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/strategy/bill')({
  component: () => <Placeholder title={<Trans>策略账单</Trans>} />,
});
