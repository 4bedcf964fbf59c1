import { createFileRoute } from '@tanstack/react-router';
import { BotActionPage } from '../../features/bots/components/bot-action-page.tsx';

export const Route = createFileRoute('/_authed/strategy/action/$id')({
  component: function ActionRoute() {
    const { id } = Route.useParams();
    return <BotActionPage key={id} id={id} />;
  },
});
