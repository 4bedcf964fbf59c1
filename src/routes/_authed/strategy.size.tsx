import { createFileRoute } from '@tanstack/react-router';
import { SizePage } from '../../features/bots/strategies/martin/size-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/size')({ loader: () => loadArea('bots'), component: SizePage });
