import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: Generated<string>;
  sn: string;
  account: string | null;
  password_hash: string | null;
  payment_hash: string | null;
  nickname: string;
  email: string;
  mobile: string;
  address: string | null;
  avatar: string;
  referrer_id: string | null;
  referrer_changed: Generated<boolean>;
  disabled: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  terminal: number;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface ExchangeKeysTable {
  id: Generated<string>;
  user_id: string;
  exchange_id: number;
  /** The API key shown to its owner: first 4 and last 4 characters. */
  api_key_masked: string;
  /** api key, secret and passphrase, sealed together (security/secret-box.ts). */
  sealed: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  exchange_keys: ExchangeKeysTable;
}
