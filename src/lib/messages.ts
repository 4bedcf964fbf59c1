/**
 * The texts the PWA itself shows (docs/product.md §8): network errors, HTTP statuses, default toasts and form
 * checks, as Lingui descriptors with stable ids. The server's texts (one per response code) are in
 * src/locales/code-messages.ts, a catalog of their own that the PWA never loads.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** Client-side texts: network errors, HTTP statuses, default toasts, form checks. */
export const clientMessages = {
  'net.timeout': msg({ id: 'net.timeout', message: '请求超时，请稍后重试' }),
  'net.offline': msg({ id: 'net.offline', message: '网络连接失败，请检查网络' }),
  'net.other': msg({ id: 'net.other', message: '网络错误，请稍后重试' }),
  'http.401': msg({ id: 'http.401', message: '未授权访问' }),
  'http.403': msg({ id: 'http.403', message: '访问被拒绝' }),
  'http.404': msg({ id: 'http.404', message: '接口不存在' }),
  'http.500': msg({ id: 'http.500', message: '服务器内部错误' }),
  'http.503': msg({ id: 'http.503', message: '服务暂时不可用' }),
  'http.other': msg({ id: 'http.other', message: '服务器错误' }),
  'toast.success': msg({ id: 'toast.success', message: '操作成功' }),
  'toast.failure': msg({ id: 'toast.failure', message: '操作失败，请稍后重试' }),
  'form.accountRequired': msg({ id: 'form.accountRequired', message: '请输入账号' }),
  'form.passwordRequired': msg({ id: 'form.passwordRequired', message: '请输入密码' }),
  'form.confirmRequired': msg({ id: 'form.confirmRequired', message: '请再次输入密码' }),
  'form.referrerMin': msg({ id: 'form.referrerMin', message: '邀请人 UID 至少 3 个字符' }),
  'form.oldPasswordRequired': msg({ id: 'form.oldPasswordRequired', message: '请输入当前密码' }),
  'form.accountFormat': msg({ id: 'form.accountFormat', message: '账号为 4-64 位字母、数字或 _ . @ -，以字母或数字开头' }),
  'form.passwordFormat': msg({ id: 'form.passwordFormat', message: '密码为 8-64 位，须同时包含字母和数字' }),
  'form.passwordsMismatch': msg({ id: 'form.passwordsMismatch', message: '两次输入的密码不一致' }),
  'form.referralInvalid': msg({ id: 'form.referralInvalid', message: '邀请码只能包含字母和数字' }),
  'form.agreementRequired': msg({ id: 'form.agreementRequired', message: '请阅读并同意用户协议' }),
  'form.emailInvalid': msg({ id: 'form.emailInvalid', message: '请输入有效的邮箱地址' }),
  'form.mobileInvalid': msg({ id: 'form.mobileInvalid', message: '请输入有效的手机号' }),
  'form.nicknameInvalid': msg({ id: 'form.nicknameInvalid', message: '昵称长度为 1-32 个字符' }),
  'form.avatarInvalid': msg({ id: 'form.avatarInvalid', message: '头像地址须以 https:// 开头' }),
  'form.paymentPasswordFormat': msg({ id: 'form.paymentPasswordFormat', message: '支付密码必须为 6 位数字' }),
  'form.paymentPasswordMismatch': msg({ id: 'form.paymentPasswordMismatch', message: '两次输入的支付密码不一致' }),
} as const satisfies Record<string, MessageDescriptor>;
