import { describe, expect, it } from 'vitest';
import { validateLogin, validateRegister, type RegisterValues } from './validate.ts';

const good: RegisterValues = { account: 'trader01', password: 'secret123', confirm: 'secret123', referrer: '', agreement: true };
const ids = (e: object) => Object.fromEntries(Object.entries(e).map(([k, d]) => [k, (d as { id: string }).id]));

describe('login form checks', () => {
  it('requires account and password', () => {
    expect(ids(validateLogin({ account: ' ', password: '' }))).toEqual({ account: 'form.accountRequired', password: 'form.passwordRequired' });
    expect(validateLogin({ account: 'a', password: 'b' })).toEqual({});
  });
});

describe('registration checks', () => {
  it('accepts a well-formed form', () => expect(validateRegister(good)).toEqual({}));
  it('requires account and password, then their format', () => {
    expect(ids(validateRegister({ ...good, account: '', password: '', confirm: '' }))).toMatchObject({
      account: 'form.accountRequired',
      password: 'form.passwordRequired',
      confirm: 'form.confirmRequired',
    });
    expect(ids(validateRegister({ ...good, account: 'ab' }))).toEqual({ account: 'form.accountFormat' });
    expect(ids(validateRegister({ ...good, password: 'onlyletters', confirm: 'onlyletters' }))).toEqual({ password: 'form.passwordFormat' });
  });
  it('needs matching passwords and the agreement', () => {
    expect(ids(validateRegister({ ...good, confirm: 'secret124' }))).toEqual({ confirm: 'form.passwordsMismatch' });
    expect(ids(validateRegister({ ...good, agreement: false }))).toEqual({ agreement: 'form.agreementRequired' });
  });
  it('takes an optional referrer of at least 3 characters', () => {
    expect(ids(validateRegister({ ...good, referrer: '12' }))).toEqual({ referrer: 'form.referrerMin' });
    expect(ids(validateRegister({ ...good, referrer: '12-4' }))).toEqual({ referrer: 'form.referralInvalid' });
    expect(validateRegister({ ...good, referrer: '12345678' })).toEqual({});
  });
});
