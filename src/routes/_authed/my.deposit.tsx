import { createFileRoute } from '@tanstack/react-router';
import { DepositPage } from '../../features/funds/components/deposit-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/deposit')({ loader: () => loadArea('funds'), component: DepositPage });
