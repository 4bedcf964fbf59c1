import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/notice/warn')({
  component: () => <Placeholder title={<Trans>风险提示</Trans>} />,
});
