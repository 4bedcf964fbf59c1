import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/referral/')({
  component: () => <Placeholder title={<Trans>邀请好友</Trans>} />,
});
