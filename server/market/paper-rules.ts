/**
 * The rules of Paper, the simulated exchange: its market (market/simulated.ts) answers tickers with them
 * and its venue (exchanges/paper-fill.ts) fills orders by them. They live with the market, the lower
 * layer, so the market never reaches up into the exchanges.
 */

/** Paper trading's fee: the common spot taker rate (market orders, a limit order that fills at once). */
export const PAPER_FEE_RATE = '0.001';
/**
 * Paper's maker fee (a limit order filled while it rested): below the taker's, as on OKX and Bybit's
 * regular tier (0.08 % and 0.1 %), so a resting order's saving shows.
 */
export const PAPER_MAKER_FEE_RATE = '0.0008';
/** The smallest order cost Paper accepts (quote), like the real venues' notional minimum. */
export const PAPER_MIN_COST = '5';
