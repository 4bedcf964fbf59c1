import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Profile } from '../../../../contract/account.ts';
import type { SetInfoField } from '../../../../contract/rules.ts';
import * as css from './settings.css.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { useUserIndex } from '../use-user-index.ts';
import { Avatar } from './avatar.tsx';
import { EditFieldDialog } from './edit-field-dialog.tsx';

const fieldLabels: Record<SetInfoField, MessageDescriptor> = {
  nickname: msg`昵称`,
  avatar: msg`头像地址`,
  email: msg`邮箱`,
  mobile: msg`手机号`,
  referrer: msg`邀请人`,
};

/** A field's value as the profile holds it (the referrer is shown by the inviter's UID). */
const fieldValue = (p: Profile, field: SetInfoField) => (field === 'referrer' ? p.referral : p[field]);

/** The profile: read-only identity (UID, account, wallet) and the editable fields (the inviter can be changed once). */
export function ProfilePage() {
  const { t, i18n } = useLingui();
  const { index, failed, reload } = useUserIndex();
  const [editing, setEditing] = useState<SetInfoField | null>(null);
  const [profile, setProfile] = useState<Profile | null>(null);
  const p = profile ?? index?.profile ?? null;
  const unset = t`未设置`;
  return (
    <Page title={<Trans>个人资料</Trans>}>
      <LoadState loading={!p && !failed} failed={failed} failedText={<Trans>资料加载失败。</Trans>} onRetry={reload} />
      {p ? (
        <>
          <ul className={ui.list}>
            <li className={ui.listRow}>
              <span className={ui.listLabel}>
                <Trans>头像</Trans>
              </span>
              <Avatar src={p.avatar} name={p.nickname || p.account} size={36} />
            </li>
            <li className={ui.listRow}>
              <span className={ui.listLabel}>UID</span>
              <span className={ui.listValue} data-testid="profile-sn">
                {p.sn}
              </span>
            </li>
            <li className={ui.listRow}>
              <span className={ui.listLabel}>
                <Trans>账号</Trans>
              </span>
              <span className={ui.listValue}>{p.account || unset}</span>
            </li>
            {p.address ? (
              <li className={ui.listRow}>
                <span className={css.fixedLabel}>
                  <Trans>钱包地址</Trans>
                </span>
                <span className={css.wrappingValue}>{p.address}</span>
              </li>
            ) : null}
          </ul>
          <ul className={ui.list}>
            {(Object.keys(fieldLabels) as SetInfoField[]).map((field) => (
              <li key={field}>
                <button type="button" className={ui.listRow} onClick={() => setEditing(field)} data-testid={`edit-${field}`}>
                  <span className={ui.listLabel}>{i18n._(fieldLabels[field])}</span>
                  <span className={ui.listValue}>{fieldValue(p, field) || unset}</span>
                  <span aria-hidden="true">›</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {editing && p ? (
        <EditFieldDialog
          field={editing}
          label={i18n._(fieldLabels[editing])}
          initial={fieldValue(p, editing)}
          onClose={() => setEditing(null)}
          onSaved={(next) => {
            setProfile(next);
            setEditing(null);
          }}
        />
      ) : null}
    </Page>
  );
}
