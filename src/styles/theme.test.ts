import { describe, expect, it } from 'vitest';
import { darkColors, lightColors } from './theme.css.ts';

/** WCAG relative luminance contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe.each([
  ['light', lightColors],
  ['dark', darkColors],
] as const)('the %s theme', (_name, c) => {
  it('keeps body and muted text readable (WCAG AA 4.5:1)', () => {
    for (const bg of [c.bg, c.surface]) {
      expect(contrast(c.text, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(c.textMuted, bg)).toBeGreaterThanOrEqual(4.5);
    }
  });
  it('keeps button and toast text readable', () => {
    expect(contrast(c.primaryText, c.primary)).toBeGreaterThanOrEqual(4.5);
    for (const bg of [c.success, c.danger, c.warning, c.info]) expect(contrast(c.toastText, bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(c.primary, c.surface)).toBeGreaterThanOrEqual(4.5);
  });
  it('keeps badges and rising and falling figures readable (badge contrast of 4.5:1)', () => {
    expect(contrast(c.success, c.primarySoft)).toBeGreaterThanOrEqual(4.5); // running, 2FA on
    expect(contrast(c.warning, c.surfaceAlt)).toBeGreaterThanOrEqual(4.5); // paused
    expect(contrast(c.textMuted, c.surfaceAlt)).toBeGreaterThanOrEqual(4.5); // stopped, off
    for (const bg of [c.bg, c.surface]) for (const fg of [c.up, c.down, c.danger, c.warning]) expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });
  it('has a blue primary colour', () => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(c.primary.slice(i, i + 2), 16));
    expect(b!).toBeGreaterThan(r!);
    expect(b!).toBeGreaterThan(g!);
  });
});
