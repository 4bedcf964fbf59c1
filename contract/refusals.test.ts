import { describe, expect, it } from 'vitest';
import { refusalKind } from './refusals.ts';

describe('the kind of an exchange refusal', () => {
  it('reads Paper’s reasons and the live exchanges’ common messages', () => {
    expect(refusalKind('insufficient balance')).toBe('funds'); // Paper
    expect(refusalKind('amount too small')).toBe('size'); // Paper
    expect(refusalKind('binance Account has insufficient balance for requested action.')).toBe('funds');
    expect(refusalKind('okx {"code":"51008","msg":"Order failed. Insufficient USDT balance in account."}')).toBe('funds');
    expect(refusalKind('binance {"code":-1013,"msg":"Filter failure: NOTIONAL"}')).toBe('size');
    expect(refusalKind('binance {"code":-1013,"msg":"Filter failure: LOT_SIZE"}')).toBe('size');
    expect(refusalKind('bybit Order quantity below the minimum')).toBe('size');
    expect(refusalKind('api-key: binance {"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."}')).toBe('key');
    expect(refusalKind('binance {"code":-1121,"msg":"Invalid symbol."}')).toBe('pair');
    expect(refusalKind('gate something unexpected')).toBe('other');
  });
});
