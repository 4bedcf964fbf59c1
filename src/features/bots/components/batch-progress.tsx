import { useQuery } from '@tanstack/react-query';
import * as Dialog from '@radix-ui/react-dialog';
import { Trans, useLingui } from '@lingui/react/macro';
import { errorText } from '../../../lib/http.ts';
import * as dialog from '../../../components/ui/dialog.css.ts';
import { button } from '../../../components/ui/ui.css.ts';
import { operationLabels } from '../labels.ts';
import * as css from '../../../shared/blocks.css.ts';
import { call } from '../../../shared/query.ts';

const POLL_MS = 400;

/** The progress of a batch task: polls botBatchStatus until every bot is done, then lists the ones that failed and why. */
export function BatchProgress({ taskId, names, onClose }: { taskId: string; names: Map<string, string>; onClose: () => void }) {
  const { i18n } = useLingui();
  // Asked every POLL_MS until the task is done (or the question fails).
  const task = useQuery({
    ...call('userBotBatchStatus', { task_id: taskId }, { show: false }),
    refetchInterval: (q) => (q.state.data?.status === 'done' || q.state.status === 'error' ? false : POLL_MS),
    refetchIntervalInBackground: true,
  });
  const status = task.data ?? null;
  const failure = task.isError ? errorText(task.error) : '';
  const done = status?.status === 'done';
  const failed = status?.results.filter((r) => !r.ok) ?? [];
  return (
    <Dialog.Root open onOpenChange={(open) => !open && done && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content} data-testid="batch-progress">
          <Dialog.Title className={dialog.title}>
            {status ? i18n._(operationLabels[status.action]) : null} {done ? <Trans>完成</Trans> : <Trans>进行中…</Trans>}
          </Dialog.Title>
          <Dialog.Description className={dialog.description}>
            {status ? (
              <Trans>
                已处理 {status.done} / {status.total}，成功 {status.results.filter((r) => r.ok).length}
              </Trans>
            ) : (
              <Trans>正在提交…</Trans>
            )}
          </Dialog.Description>
          <progress className={css.progress} max={status?.total ?? 1} value={status?.done ?? 0} />
          {failed.length > 0 ? (
            <ul data-testid="batch-failures">
              {failed.map((r) => (
                <li key={r.id} className={css.errorLine}>
                  {names.get(r.id) ?? `#${r.id}`}: {r.msg}
                </li>
              ))}
            </ul>
          ) : null}
          {failure ? (
            <p role="alert" className={css.errorLine}>
              {failure}
            </p>
          ) : null}
          <div className={css.spacer} />
          <button type="button" className={button.primary} disabled={!done && !failure} onClick={onClose}>
            <Trans>关闭</Trans>
          </button>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
