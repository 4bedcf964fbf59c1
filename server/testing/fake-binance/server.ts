import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Book, type Trade } from './book.ts';
import { BinanceError, banned, internalError, tooMuchWeight } from './errors.ts';
import { FaultPlan, type FaultRule } from './faults.ts';
import { DEFAULT_MARKETS, type MarketSpec } from './markets.ts';
import { BINANCE_LIMITS, RateCounter, type RateLimits } from './rate-limits.ts';
import { routeFor } from './routes.ts';
import { authenticate } from './signing.ts';
import type { VolumeModel } from './volume.ts';

/**
 * A local exchange that speaks the part of Binance's spot REST API that ccxt's `binance` class uses
 * for this engine (routes.ts lists it), for tests that run the live path against the real ccxt client
 * (client.ts points one at it) with no network: an in-process HTTP server on 127.0.0.1, on a free port
 * unless told otherwise. The test moves prices (`setPrice`), reads the books (`book`), and makes the
 * exchange misbehave (`faults`, faults.ts). `restart` closes and reopens it on the same state.
 */

export interface FakeBinanceOptions {
  markets?: MarketSpec[];
  /** The first price of each market, by "BTC/USDT" or "BTCUSDT". */
  prices?: Record<string, string>;
  /** Free balances to start with; 10,000 USDT unless given. */
  balances?: Record<string, string>;
  fees?: { maker?: string; taker?: string };
  /** Partial fills (volume.ts); off unless given. */
  volume?: VolumeModel | null;
  /** Seeds the volume model and the generated client order ids. */
  seed?: number;
  /** The account's key (64 letters and digits, as Binance issues them) and secret. */
  apiKey?: string;
  secret?: string;
  limits?: Partial<RateLimits>;
  faults?: FaultRule[];
  /** The server's clock (Date.now unless given); `clockSkewMs` moves it. */
  now?: () => number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Query and body parameters together, without the signature. */
  params: Record<string, string>;
  time: number;
}

export const DEFAULT_PRICES: Record<string, string> = { 'BTC/USDT': '65000', 'ETH/USDT': '3000', 'SOL/USDT': '150', 'XRP/USDT': '0.5' };
export const DEFAULT_API_KEY = 'fakeBinanceKey'.padEnd(64, '0');
export const DEFAULT_SECRET = 'fakeBinanceSecret'.padEnd(64, '0');

const JSON_TYPE = 'application/json;charset=UTF-8';

export class FakeBinance {
  readonly book: Book;
  readonly faults: FaultPlan;
  readonly rates: RateCounter;
  /** Every request that reached a route or not, in order. */
  readonly requests: RecordedRequest[] = [];
  readonly apiKey: string;
  readonly secret: string;
  clockSkewMs = 0;
  private readonly clock: () => number;
  private server: Server | null = null;
  private port = 0;
  /** Answers waiting (latency, held answers): a close ends the waits, their connections already gone. */
  private readonly waits = new Map<NodeJS.Timeout, () => void>();

  constructor(options: FakeBinanceOptions = {}) {
    this.clock = options.now ?? Date.now;
    this.apiKey = options.apiKey ?? DEFAULT_API_KEY;
    this.secret = options.secret ?? DEFAULT_SECRET;
    this.book = new Book({
      markets: options.markets ?? DEFAULT_MARKETS,
      prices: options.prices ?? DEFAULT_PRICES,
      balances: options.balances ?? { USDT: '10000' },
      fees: options.fees,
      volume: options.volume ?? null,
      seed: options.seed ?? 1,
      now: () => this.now(),
    });
    this.faults = new FaultPlan(() => this.now());
    for (const rule of options.faults ?? []) this.faults.add(rule);
    this.rates = new RateCounter({ ...BINANCE_LIMITS, ...options.limits });
  }

  /** A fake exchange listening on 127.0.0.1 (a free port unless `port` is given). */
  static async start(options: FakeBinanceOptions = {}, port = 0): Promise<FakeBinance> {
    const fake = new FakeBinance(options);
    await fake.listen(port);
    return fake;
  }

  now(): number {
    return this.clock() + this.clockSkewMs;
  }

  /** The base URL, "http://127.0.0.1:PORT" (ccxt's api sections add their paths, /api/v3). */
  get url(): string {
    if (!this.server) throw new Error('fake-binance is not listening');
    return `http://127.0.0.1:${this.port}`;
  }

  /** The price script: the market moves and the resting orders it reaches fill (book.ts). */
  setPrice(symbol: string, price: string): Trade[] {
    return this.book.setPrice(symbol, price);
  }

  async listen(port = 0): Promise<void> {
    if (this.server) throw new Error('fake-binance is already listening');
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent && !res.destroyed) send(res, 500, JSON.stringify({ code: -1000, msg: `fake-binance: ${String(error)}` }), {});
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Stops listening and drops every connection (kept-alive ones too); the state stays. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const [t, resolve] of this.waits) {
      clearTimeout(t);
      resolve();
    }
    this.waits.clear();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    // In-process clients notice their kept-alive connections closed at their next turns of the event
    // loop: a request sent before that would go out on a dead socket ("other side closed").
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** A restart that forgets nothing: the same books, prices and faults, on the same port (or another: `port: 0`). */
  async restart(options: { port?: number } = {}): Promise<void> {
    const port = options.port ?? this.port;
    await this.close();
    await this.listen(port);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.waits.delete(t);
        resolve();
      }, ms);
      this.waits.set(t, resolve);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawQuery = url.search.slice(1);
    const rawBody = await readBody(req);
    const params = new URLSearchParams(rawQuery);
    for (const [k, v] of new URLSearchParams(rawBody)) params.append(k, v);
    const path = url.pathname;
    const recorded = Object.fromEntries([...params].filter(([k]) => k !== 'signature'));
    this.requests.push({ method, path, params: recorded, time: this.now() });

    const route = routeFor(method, path);
    if (!route) {
      send(res, 404, `fake-binance does not serve ${method} ${path}`, {}, 'text/plain');
      return;
    }
    const latency = this.faults.take('latency', method, path);
    if (latency) await this.sleep(latency.ms);

    const now = this.now();
    const counted = this.rates.count(now, route.weight(params), route.isOrder === true);
    const headers = counted.headers;
    const answerError = (error: BinanceError) => send(res, error.status, error.body(), { ...headers, ...error.headers });

    const limited = this.faults.take('rateLimited', method, path);
    if (limited) {
      const retryAfter = limited.retryAfterSeconds ?? 2;
      answerError(limited.status === 418 ? banned(now + retryAfter * 1000, retryAfter) : tooMuchWeight(this.rates.limits.weightPerMinute, retryAfter));
      return;
    }
    if (this.faults.take('wafBlocked', method, path)) {
      send(res, 403, '<html><head><title>403 Forbidden</title></head><body><h1>403 ERROR</h1><h2>The request could not be satisfied.</h2>Request blocked.</body></html>', headers, 'text/html');
      return;
    }
    if (counted.refusal) {
      answerError(counted.refusal);
      return;
    }
    const failing = this.faults.take('serverError', method, path);
    if (failing && !failing.processed) {
      serverError(res, failing, headers);
      return;
    }

    const dropAfter = this.faults.take('timeoutAfterAccept', method, path);
    let status = 200;
    let body: string;
    let extra: Record<string, string> = {};
    try {
      if (route.signed) authenticate({ rawQuery, rawBody, apiKey: header(req, 'x-mbx-apikey'), params }, (key) => (key === this.apiKey ? this.secret : undefined), now);
      body = JSON.stringify(route.handle({ book: this.book, faults: this.faults, params, method, path, now, limits: this.rates.limits }));
    } catch (error) {
      if (!(error instanceof BinanceError)) throw error;
      status = error.status;
      body = error.body();
      extra = error.headers;
    }

    if (failing) {
      serverError(res, failing, headers);
      return;
    }
    if (dropAfter) {
      // Carried out, but the client never hears of it: the connection drops, or the answer comes too late.
      if ((dropAfter.mode ?? 'drop') === 'drop') {
        req.socket.destroy();
        return;
      }
      await this.sleep(dropAfter.holdMs ?? 60_000);
    }
    send(res, status, body, { ...headers, ...extra });
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string>, type = JSON_TYPE): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'Content-Type': type, ...headers });
  res.end(body);
}

function serverError(res: ServerResponse, fault: Extract<FaultRule, { kind: 'serverError' }>, headers: Record<string, string>): void {
  const status = fault.status ?? 503;
  if ((fault.body ?? 'json') === 'json') {
    send(res, status, internalError().body(), headers);
    return;
  }
  send(res, status, `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center></body></html>`, headers, 'text/html');
}
