import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { BotDetail } from '../../../../contract/bots.ts';
import { RestingOrders } from './resting-orders.tsx';

const show = (resting: BotDetail['resting']) =>
  render(
    <I18nProvider i18n={i18n}>
      <RestingOrders bot={{ resting } as BotDetail} addLabel={msg`安全单`} tick="0.01" step="0.0001" />
    </I18nProvider>,
  );

const rows = () =>
  screen
    .queryAllByRole('row')
    .slice(1)
    .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));

/** A martin or DCA bot's add and take profit on the exchange, on its detail. */
describe("a bot's resting add and take profit", () => {
  afterEach(() => {
    cleanup();
    i18n.activate('zh');
  });

  it('lists each with its price, amount and state, a refused one with the reason in words, in both languages', () => {
    const orders: BotDetail['resting'] = [
      { slot: 'add', side: 'buy', price: '1980', amount: '0.0151', state: 'refused', reason: 'insufficient balance' },
      { slot: 'take_profit', side: 'sell', price: '2024', amount: '0.0199', state: 'resting', reason: null },
    ];
    show(orders);
    expect(screen.getByRole('heading').textContent).toBe('交易所挂单');
    expect(rows()).toEqual([
      ['安全单', '1,980.00', '0.0151', '被拒绝账户余额不足'],
      ['止盈', '2,024.00', '0.0199', '挂单中'],
    ]);
    cleanup();
    i18n.activate('en');
    show(orders);
    expect(screen.getByRole('heading').textContent).toBe('On the exchange');
    expect(rows()).toEqual([
      ['Safety order', '1,980.00', '0.0151', 'RefusedNot enough balance in the account'],
      ['Take profit', '2,024.00', '0.0199', 'Resting'],
    ]);
  });

  it('shows nothing where the orders go at market', () => {
    const { container } = show(undefined);
    expect(container.textContent).toBe('');
  });
});
