import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/strategy/martin/{-$id}')({
  component: () => <Placeholder title={<Trans>马丁策略</Trans>} />,
});
