import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/bind/$exchange')({
  component: () => <Placeholder title={<Trans>绑定 API</Trans>} />,
});
