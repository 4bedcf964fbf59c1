import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/my/bind/$type')({
  component: () => <Placeholder title={<Trans>账号绑定</Trans>} />,
});
