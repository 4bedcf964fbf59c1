import { createFileRoute } from '@tanstack/react-router';
import { MartinFormPage } from '../../features/bots/components/martin-form-page.tsx';

export const Route = createFileRoute('/_authed/strategy/martin/{-$id}')({
  component: function MartinRoute() {
    const { id } = Route.useParams();
    // Remounts per bot, so a form never shows another bot's values.
    return <MartinFormPage key={id ?? 'new'} id={id} />;
  },
});
