/** What a tab's live stream records when a test sets `window.__liveLog` (src/shared/live/live.ts writes it). */
export type LogEntry = { at: number; t: string; id?: string; via?: string; applied?: boolean; state?: string; last?: string; kind?: string };
declare global {
  interface Window {
    __liveLog?: LogEntry[];
  }
}
