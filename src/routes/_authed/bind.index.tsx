import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/bind/')({
  component: () => <Placeholder title={<Trans>绑定交易所</Trans>} />,
});
