/** Every setting of the server, from the environment, with its documented default (README). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; empty: the embedded PGlite under dataDir. */
  databaseUrl: string;
  sessionTtlMs: number;
  logLevel: string;
  staticDir: string;
  /** Login attempt limits (see services/login-limiter.ts). */
  limits: LoginLimits;
}

export interface LoginLimits {
  windowMs: number;
  perAccountIp: number;
  perAccount: number;
  perIp: number;
}

export const defaultLimits: LoginLimits = { windowMs: 15 * 60_000, perAccountIp: 5, perAccount: 20, perIp: 50 };

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** Reads the configuration; a malformed value stops the start with a message naming the variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || '',
    sessionTtlMs: int(env.SESSION_TTL_DAYS, 30, 'SESSION_TTL_DAYS') * 86_400_000,
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'production' ? 'error' : 'warn'),
    staticDir: env.STATIC_DIR || './dist',
    limits: defaultLimits,
  };
}
