import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/strategy/ai/{-$id}')({
  component: () => <Placeholder title={<Trans>AI 策略</Trans>} />,
});
