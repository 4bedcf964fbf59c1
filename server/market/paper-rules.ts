/**
 * The rules of Paper, the simulated exchange: its market (market/simulated.ts) answers tickers with them
 * and its venue (exchanges/paper-fill.ts) fills orders by them. They live with the market, the lower
 * layer, so the market never reaches up into the exchanges.
 */

/** Paper trading's fee: the common spot taker rate. */
export const PAPER_FEE_RATE = '0.001';
/** The smallest order cost Paper accepts (quote), like the real venues' notional minimum. */
export const PAPER_MIN_COST = '5';
