/**
 * Binance's refusals, with its own codes, texts and HTTP statuses: ccxt maps them by code and by exact
 * text (binance.js `exceptions`), so the wording is the exchange's, letter for letter.
 */
export class BinanceError extends Error {
  readonly status: number;
  readonly code: number;
  readonly headers: Record<string, string>;

  constructor(status: number, code: number, msg: string, headers: Record<string, string> = {}) {
    super(msg);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }

  body(): string {
    return JSON.stringify({ code: this.code, msg: this.message });
  }
}

const bad = (code: number, msg: string) => new BinanceError(400, code, msg);

/** Binance's weight limit is per minute: the text names it. */
export const tooMuchWeight = (limit: number, retryAfterSeconds: number) =>
  new BinanceError(429, -1003, `Too much request weight used; current limit is ${limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`, {
    'Retry-After': String(retryAfterSeconds),
  });

export const banned = (untilMs: number, retryAfterSeconds: number) =>
  new BinanceError(418, -1003, `Way too much request weight used; IP banned until ${untilMs}. Please use WebSocket Streams for live updates to avoid bans.`, {
    'Retry-After': String(retryAfterSeconds),
  });

export const tooManyOrders = (limit: number, retryAfterSeconds: number) =>
  new BinanceError(429, -1015, `Too many new orders; current limit is ${limit} orders per 10 SECOND.`, { 'Retry-After': String(retryAfterSeconds) });

export const internalError = () => new BinanceError(500, -1001, 'Internal error; unable to process your request. Please try again.');

export const timestampAhead = () => bad(-1021, "Timestamp for this request was 1000ms ahead of the server's time.");
export const timestampOutside = () => bad(-1021, 'Timestamp for this request is outside of the recvWindow.');
export const badSignature = () => bad(-1022, 'Signature for this request is not valid.');

export const illegalCharacters = (param: string) => bad(-1100, `Illegal characters found in parameter '${param}'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.`);
export const illegalClientId = (param: string) => bad(-1100, `Illegal characters found in parameter '${param}'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'.`);
export const mandatory = (param: string) => bad(-1102, `Mandatory parameter '${param}' was not sent, was empty/null, or malformed.`);
export const eitherMandatory = (a: string, b: string) => bad(-1102, `Param '${a}' or '${b}' must be sent, but both were empty/null!`);
export const notRequired = (param: string) => bad(-1106, `Parameter '${param}' sent when not required.`);
export const tooMuchPrecision = (param: string) => bad(-1111, `Parameter '${param}' has too much precision.`);
export const invalidTimeInForce = () => bad(-1115, 'Invalid timeInForce.');
export const invalidOrderType = () => bad(-1116, 'Invalid orderType.');
export const invalidSide = () => bad(-1117, 'Invalid side.');
export const invalidInterval = () => bad(-1120, 'Invalid interval.');
export const invalidSymbol = () => bad(-1121, 'Invalid symbol.');
export const recvWindowTooLarge = () => bad(-1131, 'recvWindow must be less than 60000');

/** A filter's refusal: PRICE_FILTER, LOT_SIZE, MARKET_LOT_SIZE, NOTIONAL. */
export const filterFailure = (filter: string) => bad(-1013, `Filter failure: ${filter}`);

export const insufficientBalance = () => bad(-2010, 'Account has insufficient balance for requested action.');
export const wouldTake = () => bad(-2010, 'Order would immediately match and take.');
export const duplicateOrder = () => bad(-2010, 'Duplicate order sent.');
export const unknownOrder = () => bad(-2011, 'Unknown order sent.');
export const noSuchOrder = () => bad(-2013, 'Order does not exist.');

export const badKeyFormat = () => new BinanceError(401, -2014, 'API-key format invalid.');
export const badKey = () => new BinanceError(401, -2015, 'Invalid API-key, IP, or permissions for action.');
