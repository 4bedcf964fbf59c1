import { styleVariants } from '@vanilla-extract/css';
import { TAB_BAR_PADDING } from './tabs.ts';

/** The app shell: room at the bottom for the tab bar where it shows. */
export const shell = styleVariants({
  withTabs: { paddingBottom: TAB_BAR_PADDING },
  plain: { paddingBottom: 0 },
});
