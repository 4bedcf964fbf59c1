import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/my/deposit')({
  component: () => <Placeholder title={<Trans>充值</Trans>} />,
});
