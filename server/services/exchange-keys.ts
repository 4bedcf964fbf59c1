import type { ApiBinding } from '../../contract/exchanges.ts';
import type { ExchangeInfo } from '../../contract/market.ts';
import type { Db } from '../db/connect.ts';
import { exchangeById, exchangeByCode } from '../exchanges/catalog.ts';
import { verifyKeys, type ClientFactory, type Credentials } from '../exchanges/verify.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { fail } from '../errors.ts';

export interface ExchangeKeysDeps {
  db: Db;
  box: SecretBox;
  client?: ClientFactory;
}

/** What the owner sees of a key: the first and last four characters. */
export function maskKey(apiKey: string): string {
  return apiKey.length <= 8 ? `${apiKey.slice(0, 2)}****` : `${apiKey.slice(0, 4)}****${apiKey.slice(-4)}`;
}

/** The additional data a row's keys are sealed with: a row opens as its own owner's only (also used by key rotation). */
export const owner = (userId: string, exchangeId: number) => `exchange-key:${userId}:${exchangeId}`;

function binding(row: { id: string; exchange_id: number; api_key_masked: string; created_at: Date; updated_at: Date }): ApiBinding {
  const exchange = exchangeById(row.exchange_id)!;
  return { id: row.id, exchangeId: row.exchange_id, exchange: exchange.code, apiKey: row.api_key_masked, createdAt: row.created_at.toISOString(), updatedAt: row.updated_at.toISOString() };
}

/**
 * Binds (or re-binds) an exchange's API keys after verifying them with the exchange. The secret is
 * sealed before it touches the database and never comes back out through the API.
 */
export async function bindKeys(deps: ExchangeKeysDeps, userId: string, exchangeId: number, creds: Credentials): Promise<ApiBinding> {
  const exchange = exchangeById(exchangeId);
  if (!exchange) throw fail('ApiExchangeUnsupported');
  const existing = await deps.db.selectFrom('exchange_keys').select('id').where('user_id', '=', userId).where('exchange_id', '=', exchangeId).executeTakeFirst();
  const failure = existing ? 'BindUpdateFailed' : 'BindAddFailed';
  if (exchange.passphrase && !creds.passphrase) throw fail(failure);
  if (!(await verifyKeys(exchange, creds, deps.client))) throw fail(failure);
  const sealed = deps.box.seal(JSON.stringify({ apiKey: creds.apiKey, secretKey: creds.secretKey, passphrase: creds.passphrase ?? '' }), owner(userId, exchangeId));
  const row = await deps.db
    .insertInto('exchange_keys')
    .values({ user_id: userId, exchange_id: exchangeId, api_key_masked: maskKey(creds.apiKey), sealed })
    .onConflict((oc) => oc.columns(['user_id', 'exchange_id']).doUpdateSet({ api_key_masked: maskKey(creds.apiKey), sealed, updated_at: new Date() }))
    .returning(['id', 'exchange_id', 'api_key_masked', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
  return binding(row);
}

/** Removes a binding of the user's own; someone else's id is "not bound", never a hint that it exists. */
export async function unbindKeys(db: Db, userId: string, id: string): Promise<void> {
  const result = await db.deleteFrom('exchange_keys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw fail('ApiNotBound');
}

/** The user's bindings (masked), for one exchange code or all. */
export async function listBindings(db: Db, userId: string, exchangeCode?: string): Promise<ApiBinding[]> {
  let query = db.selectFrom('exchange_keys').select(['id', 'exchange_id', 'api_key_masked', 'created_at', 'updated_at']).where('user_id', '=', userId);
  if (exchangeCode) {
    const exchange: ExchangeInfo | undefined = exchangeByCode(exchangeCode);
    if (!exchange) throw fail('ApiExchangeUnsupported');
    query = query.where('exchange_id', '=', exchange.id);
  }
  return (await query.orderBy('exchange_id').execute()).map(binding);
}

/** The decrypted keys, for the engine's exchange adapter only (never for an HTTP answer). */
export async function readCredentials(deps: ExchangeKeysDeps, userId: string, exchangeId: number): Promise<Credentials> {
  const row = await deps.db.selectFrom('exchange_keys').select('sealed').where('user_id', '=', userId).where('exchange_id', '=', exchangeId).executeTakeFirst();
  if (!row) throw fail('ApiNotBound');
  const { apiKey, secretKey, passphrase } = JSON.parse(deps.box.open(row.sealed, owner(userId, exchangeId))) as Credentials;
  return { apiKey, secretKey, passphrase: passphrase || undefined };
}
