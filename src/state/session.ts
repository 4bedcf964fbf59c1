import { atom } from 'jotai';
import { RESET, atomWithStorage, createJSONStorage } from 'jotai/utils';
import type { LoginData, PublicUser } from '../../contract/auth.ts';

/** The logged-in user as docs/product.md §3 keeps it: `password` is true for account login, false for wallet. */
export interface SessionUser extends PublicUser {
  password: boolean;
}

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

const local = createJSONStorage<unknown>(() => localStorage);

/** The bearer token, stored on its own (docs/product.md §3). */
export const tokenAtom = atomWithStorage<string>(TOKEN_KEY, '', local as never, { getOnInit: true });
export const userAtom = atomWithStorage<SessionUser | null>(USER_KEY, null, local as never, { getOnInit: true });
export const isLoggedInAtom = atom((get) => get(tokenAtom) !== '');

/** Separate loading flags for the three ways in (docs/product.md §4). */
export const loginLoadingAtom = atom(false);
export const walletLoadingAtom = atom(false);
export const registerLoadingAtom = atom(false);

/** Keeps a successful login: the user (with how they logged in) and the token. */
export const signInAtom = atom(null, (_get, set, data: LoginData, via: 'password' | 'wallet') => {
  const { token, ...user } = data;
  set(tokenAtom, token);
  set(userAtom, { ...user, password: via === 'password' });
});

/** Forgets the session in memory (storage is wiped by the caller where the spec says so). */
export const signOutAtom = atom(null, (_get, set) => {
  set(tokenAtom, RESET);
  set(userAtom, RESET);
});
