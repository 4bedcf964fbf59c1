import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/strategy/')({
  component: () => <Placeholder root title={<Trans>现货</Trans>} />,
});
