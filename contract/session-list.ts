/** One of the trader's live sessions, as the security screen lists it (GET /api/user/sessions). */
export interface SessionRow {
  id: string;
  /** The terminal code the login named (1 other, 2 iOS, 3 Android, 4 a wallet login). */
  terminal: number;
  /** The browser's user agent at login ('' when none was sent). */
  agent: string;
  /** The login's source IP, as the server's limits saw it (TRUST_PROXY decides which). */
  ip: string;
  createdAt: string;
  /** The last call through it, to the minute. */
  lastSeenAt: string;
  /** The session of the device asking. */
  current: boolean;
}

/** The list, and until when the asking session may end the others (null: log in again first). */
export interface SessionList {
  list: SessionRow[];
  total: number;
  page: number;
  page_size: number;
  freshUntil: string | null;
}
