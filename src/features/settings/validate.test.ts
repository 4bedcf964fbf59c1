import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { profileFieldError, validatePassword } from './validate.ts';

const ids = (e: object) => Object.fromEntries(Object.entries(e).map(([k, d]) => [k, (d as { id: string }).id]));

describe('profile field checks', () => {
  it('rejects a bad email in the current language', () => {
    i18n.activate('zh');
    expect(profileFieldError('email', 'not-an-email')).toBe('请输入有效的邮箱地址');
    i18n.activate('en');
    expect(profileFieldError('email', 'not-an-email')).toBe('Enter a valid email address');
    i18n.activate('zh');
  });
  it('accepts good values and blanks for optional fields', () => {
    expect(profileFieldError('email', 'a@b.co')).toBeNull();
    expect(profileFieldError('email', '')).toBeNull();
    expect(profileFieldError('mobile', '+8613800000000')).toBeNull();
    expect(profileFieldError('avatar', 'https://x.example/a.png')).toBeNull();
  });
  it('rejects an empty or long nickname, a bad mobile and a non-https avatar', () => {
    expect(profileFieldError('nickname', ' ')).not.toBeNull();
    expect(profileFieldError('nickname', 'x'.repeat(33))).not.toBeNull();
    expect(profileFieldError('mobile', '12ab')).not.toBeNull();
    expect(profileFieldError('avatar', 'javascript:alert(1)')).not.toBeNull();
  });
});

describe('password form checks', () => {
  it('wants exactly 6 digits for a payment password and a matching confirmation', () => {
    expect(ids(validatePassword('payment', { old: '', password: '12345', confirm: '12345' }, false))).toEqual({ password: 'form.paymentPasswordFormat' });
    expect(ids(validatePassword('payment', { old: '', password: '1234567', confirm: '1234567' }, false))).toEqual({ password: 'form.paymentPasswordFormat' });
    expect(ids(validatePassword('payment', { old: '', password: '123456', confirm: '123457' }, false))).toEqual({ confirm: 'form.paymentPasswordMismatch' });
    expect(validatePassword('payment', { old: '', password: '123456', confirm: '123456' }, false)).toEqual({});
  });
  it('asks for the current password when needed', () => {
    expect(ids(validatePassword('login', { old: '', password: 'newpass123', confirm: 'newpass123' }, true))).toEqual({ old: 'form.oldPasswordRequired' });
    expect(ids(validatePassword('login', { old: 'x', password: 'short', confirm: 'short' }, true))).toEqual({ password: 'form.passwordFormat' });
  });
});
