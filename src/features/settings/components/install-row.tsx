import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import * as Dialog from '@radix-ui/react-dialog';
import * as dialog from '../../../components/ui/dialog.css.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { installWay, promptInstall, type InstallWay } from '../install.ts';
import * as css from './settings.css.ts';

/** The install entry of /setting: the browser's prompt, or the steps for this browser in a sheet. */
export function InstallRow() {
  const { t } = useLingui();
  const [way, setWay] = useState<InstallWay>(() => installWay());
  const [open, setOpen] = useState(false);
  const tap = async () => {
    if (way === 'prompt') setWay((await promptInstall()) ? 'installed' : installWay());
    else if (way !== 'installed') setOpen(true);
  };
  return (
    <li>
      <button type="button" className={ui.listRow} onClick={() => void tap()} disabled={way === 'installed'} data-testid="install-app" data-way={way}>
        <span className={ui.listLabel}>
          <Trans>添加到主屏幕</Trans>
        </span>
        <span className={ui.listValue}>{way === 'installed' ? t`已安装` : way === 'prompt' ? t`安装` : t`查看步骤`}</span>
        <span className={css.chevron} aria-hidden="true">
          ›
        </span>
      </button>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className={dialog.overlay} />
          <Dialog.Content className={dialog.content} data-testid="install-steps">
            <Dialog.Title className={dialog.title}>
              <Trans>添加到主屏幕</Trans>
            </Dialog.Title>
            <Dialog.Description className={dialog.description}>
              <Trans>安装后可像普通应用一样从桌面打开，离线时也能查看策略。</Trans>
            </Dialog.Description>
            <ol className={css.steps}>
              {way === 'ios' ? (
                <>
                  <li>
                    <Trans>用 Safari 打开本页面。</Trans>
                  </li>
                  <li>
                    <Trans>点击底部的"分享"按钮（方框加向上箭头）。</Trans>
                  </li>
                  <li>
                    <Trans>选择"添加到主屏幕"，再点"添加"。</Trans>
                  </li>
                </>
              ) : way === 'wallet' ? (
                <>
                  <li>
                    <Trans>钱包内置浏览器不能安装应用：点击右上角菜单，选择"在浏览器中打开"或复制链接。</Trans>
                  </li>
                  <li>
                    <Trans>在系统浏览器（Chrome 或 Safari）中打开本页面。</Trans>
                  </li>
                  <li>
                    <Trans>在浏览器菜单中选择"添加到主屏幕"或"安装应用"。</Trans>
                  </li>
                </>
              ) : (
                <>
                  <li>
                    <Trans>打开浏览器菜单（右上角的 ⋮ 或底部的 ≡）。</Trans>
                  </li>
                  <li>
                    <Trans>选择"安装应用"或"添加到主屏幕"。</Trans>
                  </li>
                  <li>
                    <Trans>确认后，桌面上会出现 QuantBot 图标。</Trans>
                  </li>
                </>
              )}
            </ol>
            <Dialog.Close asChild>
              <button type="button" className={ui.button.primary}>
                <Trans>知道了</Trans>
              </button>
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </li>
  );
}
