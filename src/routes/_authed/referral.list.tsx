import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/referral/list')({
  component: () => <Placeholder title={<Trans>邀请列表</Trans>} />,
});
