import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/my/asset/$type')({
  component: () => <Placeholder title={<Trans>我的资产</Trans>} />,
});
