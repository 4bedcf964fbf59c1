import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import * as css from '../../../shared/blocks.css.ts';
import { Profit } from './figure.tsx';

const profit = (value: string) => {
  render(
    <I18nProvider i18n={i18n}>
      <Profit value={value} />
    </I18nProvider>,
  );
  return screen.getByText(/\d/);
};

/** USDT at 2 decimals. Home's and the bill's today showed +0.0947 beside a realised +0.09. */
describe('a profit', () => {
  afterEach(cleanup);

  it('shows USDT at 2 decimals with its sign, coloured by its sign', () => {
    const up = profit('0.0947');
    expect(up.textContent).toBe('+0.09');
    expect(up.className).toBe(css.profit.up);
    cleanup();
    const down = profit('-1234.5678');
    expect(down.textContent).toBe('-1,234.57');
    expect(down.className).toBe(css.profit.down);
  });

  it('leaves a profit that rounds to zero uncoloured', () => {
    const tiny = profit('0.004');
    expect(tiny.textContent).toBe('0.00');
    expect(tiny.className).toBe(css.profit.flat);
  });
});
