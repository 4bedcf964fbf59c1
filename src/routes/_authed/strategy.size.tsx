import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/strategy/size')({
  component: () => <Placeholder title={<Trans>仓位计算器</Trans>} />,
});
