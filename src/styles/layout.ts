/**
 * The app is a phone-width column: on a wide screen (a desktop browser, a tablet) it stays this wide,
 * centred, with its fixed bars (the tab bar, the batch bar) inside the same column.
 */
export const APP_COLUMN_PX = 480;

/** A fixed bar that spans the column, not the window: left and right 0, capped and centred. */
export const inColumn = { left: 0, right: 0, maxWidth: APP_COLUMN_PX, marginInline: 'auto' } as const;
