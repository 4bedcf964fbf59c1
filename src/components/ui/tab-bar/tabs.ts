/** The five tabs of docs/product.md §2, in order. */
export const tabPaths = ['/', '/simulation', '/rank', '/strategy', '/my'] as const;
export type TabPath = (typeof tabPaths)[number];

export const TAB_BAR_HEIGHT = 60;
export const TAB_BAR_PADDING = 66;

/** The bar shows only on the five exact paths (a trailing slash counts as the same path). */
export function isTabBarVisible(pathname: string): boolean {
  return (tabPaths as readonly string[]).includes(normalize(pathname));
}

function normalize(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}
