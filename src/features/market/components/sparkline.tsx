/** A day's closes as a small line: green when it ended up, red when down (an SVG, no chart library). */
export function Sparkline({ values, up }: { values: number[]; up: boolean }) {
  if (values.length < 2) return <svg width="64" height="24" aria-hidden="true" />;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const points = values.map((v, i) => `${((i / (values.length - 1)) * 64).toFixed(1)},${(22 - ((v - min) / span) * 20).toFixed(1)}`).join(' ');
  return (
    <svg width="64" height="24" viewBox="0 0 64 24" aria-hidden="true" data-testid="sparkline">
      <polyline points={points} fill="none" stroke={up ? 'var(--market-up, #18773a)' : 'var(--market-down, #c62828)'} strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}
