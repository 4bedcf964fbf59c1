import { Navigate, getRouteApi } from '@tanstack/react-router';
import { BotActionPage } from './bot-action-page.tsx';
import { BotDetailPage } from './bot-detail-page.tsx';
import { AllLogsPage } from './all-logs-page.tsx';
import { AiPage } from './ai-page.tsx';
import { copyAs, copyOf } from '../bot-copy.ts';
import { strategyOf } from '../strategies/index.ts';

/*
 * The bot screens as route components. They read their params through getRouteApi, so the route
 * files hold nothing but a reference and every screen stays in its own lazily loaded chunk.
 */
const formRoute = getRouteApi('/_authed/strategy/$type/{-$id}');
const aiRoute = getRouteApi('/_authed/strategy/ai/{-$id}');
const detailRoute = getRouteApi('/_authed/strategy/detail/$id');
const actionRoute = getRouteApi('/_authed/strategy/action/$id');
const logsRoute = getRouteApi('/_authed/strategy/logs');

/** ?exchange= (a code) picks the exchange a new bot starts on, e.g. from the bind screen's next step (checked here, like ?id= below). */
function exchangeOf(search: Record<string, unknown>): string | undefined {
  return typeof search.exchange === 'string' && /^[a-z0-9]{2,20}$/.test(search.exchange) ? search.exchange : undefined;
}

/** A type's create or edit screen (the registry's), remounted per bot so that a form never shows another bot's values. */
export function FormRoute() {
  const { type, id } = formRoute.useParams();
  const search: Record<string, unknown> = formRoute.useSearch();
  const strategy = strategyOf(type);
  // A type the registry does not know goes home, as any unknown path does.
  if (!strategy) return <Navigate to="/" replace />;
  const { FormPage } = strategy;
  return <FormPage key={`${type}-${id ?? 'new'}`} id={id} exchange={exchangeOf(search)} copy={id ? undefined : copyAs(copyOf(search), strategy.copied)} />;
}

export function AiRoute() {
  const { id } = aiRoute.useParams();
  return <AiPage key={id ?? 'new'} id={id} />;
}

export function DetailRoute() {
  const { id } = detailRoute.useParams();
  return <BotDetailPage key={id} id={id} />;
}

export function ActionRoute() {
  const { id } = actionRoute.useParams();
  return <BotActionPage key={id} id={id} />;
}

/** ?id= picks the bot whose log shows, or every bot's without it (checked here, not in the route: the route tree ships in the entry). */
export function LogsRoute() {
  const search: Record<string, unknown> = logsRoute.useSearch();
  const id = typeof search.id === 'number' ? String(search.id) : search.id;
  return <AllLogsPage id={typeof id === 'string' && /^[1-9]\d{0,17}$/.test(id) ? id : undefined} />;
}
