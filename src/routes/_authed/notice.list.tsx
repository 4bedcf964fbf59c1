import { createFileRoute } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Placeholder } from './-components/placeholder.tsx';

export const Route = createFileRoute('/_authed/notice/list')({
  component: () => <Placeholder title={<Trans>公告</Trans>} />,
});
