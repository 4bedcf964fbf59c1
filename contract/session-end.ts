/**
 * The codes after which the client ends the session (wipes storage, goes to /login): NotLoggedIn, TokenExpired,
 * SessionRevoked, SessionTriesExhausted (the session was ended by its wrong password or code tries)
 * and SessionReplaced (a login on one device too many ended it): the trader is signed out with that message, as numbers in a file of their own, so that the
 * HTTP client, which is in /login's entry, does not bring the whole code table (codes.ts) with it;
 * contract.test.ts ties them to the table.
 */
export const sessionEndCodes: readonly number[] = [101, 1006, 2003, 1024, 1027];
