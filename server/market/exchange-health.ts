/**
 * Whether an exchange answers, from what its market data calls meet: down once it has failed to be reached
 * for `downAfterMs` (at least `minFailures` calls in a row, so one lost packet is no outage), up again at
 * the first answer. Only failures to reach it count (a network error, a timeout, a rate limit, maintenance):
 * an unknown pair is an answer. Each change is reported once, to `onChange`.
 */
export type ExchangeState = 'down' | 'up';

export interface HealthOptions {
  downAfterMs?: number;
  minFailures?: number;
  now?: () => number;
  onChange: (exchange: string, state: ExchangeState) => void;
}

interface Track {
  failures: number;
  since: number;
  down: boolean;
}

export class ExchangeHealth {
  private readonly tracks = new Map<string, Track>();
  private readonly options: HealthOptions;

  constructor(options: HealthOptions) {
    this.options = options;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The exchange answered. */
  ok(exchange: string): void {
    const track = this.tracks.get(exchange);
    if (!track) return;
    this.tracks.delete(exchange);
    if (track.down) this.options.onChange(exchange, 'up');
  }

  /** A call to the exchange failed with `unreachable` telling whether it could not be reached at all. */
  failed(exchange: string, unreachable: boolean): void {
    if (!unreachable) return;
    const now = this.now();
    const track = this.tracks.get(exchange) ?? { failures: 0, since: now, down: false };
    track.failures++;
    this.tracks.set(exchange, track);
    if (!track.down && track.failures >= (this.options.minFailures ?? 3) && now - track.since >= (this.options.downAfterMs ?? 30_000)) {
      track.down = true;
      this.options.onChange(exchange, 'down');
    }
  }

  /** Exchanges this process sees down now. */
  down(): string[] {
    return [...this.tracks].filter(([, t]) => t.down).map(([exchange]) => exchange);
  }
}
