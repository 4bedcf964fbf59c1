import { randomBytes } from 'node:crypto';
import { getAddress, isAddress, recoverMessageAddress, type Hex } from 'viem';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import type { LoginData, PublicUser } from '../../contract/auth.ts';
import type { Db } from '../db/connect.ts';
import { createUser, isUniqueViolation, referrerIdOf } from './accounts.ts';
import { fail } from '../errors.ts';
import { openSession } from './sessions.ts';
import { publicUser, referrerSn } from './users.ts';

/**
 * Sign-In with Ethereum on BNB Smart Chain (EIP-4361). The server writes the exact message,
 * with a single-use 128-bit nonce bound to the address, chain id 56, this site's domain and uri, the
 * time it was issued and a 5-minute expiry; the wallet signs it; the verify call proves the signature
 * by recovering the address (no RPC: ordinary wallets). A message the client sends instead must be the
 * very one that was issued: another chain, another site or another nonce is refused with its reason.
 */
export const WALLET_CHAIN_ID = 56;
export const NONCE_TTL_MS = 5 * 60_000;
const STATEMENT = 'Sign in to QuantBot with this wallet.';

/** A configured site (PUBLIC_ORIGIN): what the message names and what verify checks. */
export interface Site {
  domain: string;
  uri: string;
}

export async function issueNonce(db: Db, rawAddress: string, site: Site, now = new Date()): Promise<{ nonce: string; message: string; expiresAt: string }> {
  if (!isAddress(rawAddress, { strict: false })) throw fail('InvalidAddress');
  const address = getAddress(rawAddress);
  const nonce = randomBytes(16).toString('hex'); // 128 bits, alphanumeric as EIP-4361 wants
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  const message = createSiweMessage({
    domain: site.domain,
    address,
    statement: STATEMENT,
    uri: site.uri,
    version: '1',
    chainId: WALLET_CHAIN_ID,
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
  });
  await db.insertInto('wallet_nonces').values({ nonce, address, message, expires_at: expiresAt }).execute();
  // At most a few unused sign-in nonces per address: the older ones go. A caller that
  // asks again and again (the call is rate-limited per source too) replaces rows instead of adding them.
  const kept = db
    .selectFrom('wallet_nonces')
    .select('nonce')
    .where('address', '=', address)
    .where('purpose', '=', 'login')
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('nonce', 'desc')
    .limit(NONCES_PER_ADDRESS);
  await db.deleteFrom('wallet_nonces').where('address', '=', address).where('purpose', '=', 'login').where('used_at', 'is', null).where('nonce', 'not in', kept).execute();
  // Expired nonces, used or not, are of no use to anyone: the table holds only live ones.
  await db.deleteFrom('wallet_nonces').where('expires_at', '<', now).execute();
  return { nonce, message, expiresAt: expiresAt.toISOString() };
}

/** Unused sign-in nonces kept per address: a few tabs or devices signing in at once. */
export const NONCES_PER_ADDRESS = 3;

/** What a signed statement may be used for: a login signature never sets a payment password, nor the reverse. */
export type NoncePurpose = 'login' | 'payment';

/**
 * A statement for the bound wallet to sign before a wallet account sets or resets its payment password
 *: single use, 5 minutes, this site, chain 56, naming the account, so a stolen
 * session token alone cannot set one and withdraw.
 */
export async function issuePaymentNonce(db: Db, user: { sn: string; address: string | null }, site: Site, now = new Date()): Promise<{ nonce: string; message: string; expiresAt: string }> {
  if (!user.address) throw fail('WalletNotConnected');
  const nonce = randomBytes(16).toString('hex');
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  const message = createSiweMessage({
    domain: site.domain,
    address: user.address as `0x${string}`,
    statement: `Confirm a password change of QuantBot account UID ${user.sn}. Sign only if you asked for it.`,
    uri: site.uri,
    version: '1',
    chainId: WALLET_CHAIN_ID,
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
  });
  // One pending statement per wallet and purpose is enough: older unused ones go.
  await db.deleteFrom('wallet_nonces').where('address', '=', user.address).where('purpose', '=', 'payment').where('used_at', 'is', null).execute();
  await db.insertInto('wallet_nonces').values({ nonce, address: user.address, message, expires_at: expiresAt, purpose: 'payment' }).execute();
  return { nonce, message, expiresAt: expiresAt.toISOString() };
}

export interface SignedIn {
  address: string;
  signature: string;
  /** The message the wallet signed, when the client sends it; by default the one issued last for the address. */
  message?: string | undefined;
}

/** Checks a signed sign-in message and uses its nonce up; returns the checksummed address it proves. */
export async function spendSignature(db: Db, input: SignedIn, site: Site, now = new Date(), purpose: NoncePurpose = 'login'): Promise<string> {
  if (!isAddress(input.address, { strict: false })) throw fail('InvalidAddress');
  const address = getAddress(input.address);
  let nonce: string | undefined;
  if (input.message !== undefined) {
    const parsed = parseSiweMessage(input.message);
    if (parsed.chainId !== WALLET_CHAIN_ID) throw fail('WalletNetworkUnsupported');
    if (parsed.domain !== site.domain || parsed.uri !== site.uri) throw fail('WalletDomainMismatch');
    if (!parsed.address || getAddress(parsed.address) !== address) throw fail('WalletSignatureFailed');
    nonce = parsed.nonce;
  }
  const row = await (nonce
    ? db.selectFrom('wallet_nonces').selectAll().where('nonce', '=', nonce)
    : db.selectFrom('wallet_nonces').selectAll().where('address', '=', address).where('used_at', 'is', null).where('purpose', '=', purpose).orderBy('created_at', 'desc')
  ).executeTakeFirst();
  if (!row || row.address !== address || row.used_at !== null || row.purpose !== purpose || row.expires_at.getTime() <= now.getTime()) throw fail('WalletNonceInvalid');
  // The issued message is the one that counts: a client's copy must be it, word for word.
  const message = input.message ?? row.message;
  if (message !== row.message) throw fail('WalletSignatureFailed');
  // And it names this configured site on chain 56, whichever host it was asked for.
  const issued = parseSiweMessage(message);
  if (issued.chainId !== WALLET_CHAIN_ID) throw fail('WalletNetworkUnsupported');
  if (issued.domain !== site.domain || issued.uri !== site.uri) throw fail('WalletDomainMismatch');
  let signer: string;
  try {
    signer = await recoverMessageAddress({ message, signature: input.signature as Hex });
  } catch {
    throw fail('WalletSignatureFailed');
  }
  if (getAddress(signer) !== address) throw fail('WalletSignatureFailed');
  // Single use, also when two verifies race: only the one that flips used_at wins.
  const used = await db.updateTable('wallet_nonces').set({ used_at: now }).where('nonce', '=', row.nonce).where('used_at', 'is', null).executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw fail('WalletNonceInvalid');
  return address;
}

const shortAddress = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** Logs in with a wallet; the first login creates the account (with the referrer when one is given). */
export async function walletLogin(deps: { db: Db; sessionTtlMs: number; welcomeFuel?: string }, input: SignedIn & { terminal: number; referrer?: string | undefined }, site: Site): Promise<LoginData> {
  const { db } = deps;
  const address = await spendSignature(db, input, site);
  let user = await db.selectFrom('users').selectAll().where('address', '=', address).executeTakeFirst();
  if (!user) {
    const referrerId = await referrerIdOf(db, input.referrer);
    try {
      user = await createUser(db, { account: null, password_hash: null, nickname: shortAddress(address), address, referrer_id: referrerId }, deps.welcomeFuel);
    } catch (e) {
      // Two first logins of one wallet at once: the other one made the account.
      if (!isUniqueViolation(e, 'address')) throw e;
      user = await db.selectFrom('users').selectAll().where('address', '=', address).executeTakeFirstOrThrow();
    }
  }
  if (user.disabled) throw fail('AccountDisabled');
  const token = await openSession(db, user.id, input.terminal, deps.sessionTtlMs);
  return { token, ...publicUser(user, await referrerSn(db, user.referrer_id)) };
}

/** Binds a wallet to an account user: one wallet per account, one account per wallet. */
export async function bindWallet(db: Db, userId: string, input: SignedIn, site: Site): Promise<PublicUser> {
  const me = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  if (me.address) throw fail('WalletAlreadyBound');
  const address = await spendSignature(db, input, site);
  const other = await db.selectFrom('users').select('id').where('address', '=', address).executeTakeFirst();
  if (other) throw fail('WalletInUse');
  try {
    const user = await db.updateTable('users').set({ address }).where('id', '=', userId).where('address', 'is', null).returningAll().executeTakeFirst();
    if (!user) throw fail('WalletAlreadyBound');
    return publicUser(user, await referrerSn(db, user.referrer_id));
  } catch (e) {
    if (isUniqueViolation(e, 'address')) throw fail('WalletInUse');
    throw e;
  }
}
