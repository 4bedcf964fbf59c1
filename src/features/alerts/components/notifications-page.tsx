import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { failed, keepPage, loading } from '../../../shared/query.ts';
import { endpointQuery, settingsQuery } from '../queries.ts';
import { DeviceCard } from './device-card.tsx';
import { KindsCard } from './kinds-card.tsx';
import { QuietCard } from './quiet-card.tsx';
import { TestCard } from './test-card.tsx';
import { WebhookCard } from './webhook-card.tsx';

/**
 * /my/notifications: alerts when the app is closed. Pushes on this device (asked for on a tap, with
 * the words for the browsers that cannot have them), what each kind of alert does, quiet hours, a test
 * alert, and a webhook for traders without pushes.
 */
export function NotificationsPage() {
  const endpoint = useQuery(endpointQuery);
  // Turning pushes on or off changes the endpoint and with it the query: the screen keeps showing the last answer meanwhile.
  const settings = useQuery({ ...settingsQuery(endpoint.data ?? null), ...keepPage, enabled: endpoint.isFetched });
  const s = settings.data;
  return (
    <Page title={<Trans>通知</Trans>}>
      <LoadState loading={loading(settings)} failed={failed(settings)} failedText={<Trans>通知设置加载失败。</Trans>} onRetry={() => void settings.refetch()} />
      {s ? (
        <>
          <DeviceCard settings={s} endpoint={endpoint.data ?? null} />
          <KindsCard settings={s} queryKey={settingsQuery(endpoint.data ?? null).queryKey} />
          <QuietCard quiet={s.quiet} />
          <TestCard />
          <WebhookCard webhook={s.webhook} />
        </>
      ) : null}
    </Page>
  );
}
