import { atom } from 'jotai';
import { store } from './store.ts';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  /** What a tap does instead of dismissing (the update toast reloads); such a toast stays until tapped. */
  onTap?: () => void;
}

/** How long each kind stays (docs/product.md §9). */
export const toastDurations: Record<ToastKind, number> = { success: 3000, error: 4000, warning: 3000, info: 3000 };

export const toastsAtom = atom<Toast[]>([]);
let nextId = 1;

/** Shows a toast from anywhere (components, the HTTP client); it leaves by itself after its duration. */
export function showToast(kind: ToastKind, text: string, onTap?: () => void): number {
  const id = nextId++;
  store.set(toastsAtom, (list) => [...list.slice(-2), { id, kind, text, ...(onTap ? { onTap } : {}) }]);
  if (!onTap) setTimeout(() => dismissToast(id), toastDurations[kind]);
  return id;
}

export function dismissToast(id: number): void {
  store.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}
