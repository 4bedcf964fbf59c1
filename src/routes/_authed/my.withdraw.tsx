import { createFileRoute } from '@tanstack/react-router';
import { WithdrawPage } from '../../features/funds/components/withdraw-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/withdraw')({ loader: () => loadArea('funds'), component: WithdrawPage });
