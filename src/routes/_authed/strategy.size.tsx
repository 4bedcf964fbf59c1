import { createFileRoute } from '@tanstack/react-router';
import { SizePage } from '../../features/bots/components/size-page.tsx';

export const Route = createFileRoute('/_authed/strategy/size')({ component: SizePage });
