import { createFileRoute } from '@tanstack/react-router';
import { BotDetailPage } from '../../features/bots/components/bot-detail-page.tsx';

export const Route = createFileRoute('/_authed/strategy/detail/$id')({
  component: function DetailRoute() {
    const { id } = Route.useParams();
    return <BotDetailPage key={id} id={id} />;
  },
});
