import type { Page } from 'playwright-core';

// What the 320 px sweep (narrow-screen.test.ts) measures of tap targets and rows of chips: chips and tabs
// are 44 px tap targets, a row of chips too wide for the screen scrolls inside itself (with a fade at the
// edge it continues past), and nothing else reaches past either edge or makes the page scroll sideways.

export interface Layout {
  /** document.documentElement.scrollWidth: above the viewport's width, the whole page scrolls sideways. */
  scrollWidth: number;
  /** Elements past the left or right edge that no sideways-scrolling row holds. */
  pastEdge: string[];
  /** Chips, tabs, buttons and links drawn as buttons whose own box is under 44 px high. */
  short: string[];
  /** Rows of chips wider than their box that show no fade at an edge with more chips behind it. */
  unfaded: string[];
  /** Rows of chips that fit and still fade an edge. */
  needlessFade: string[];
}

/** The page as drawn: what lies past the screen's edges, what is too short to tap, which scrolling rows hint at more. */
export function tapLayout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      return `<${el.tagName.toLowerCase()}> "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 24)}" ${Math.round(r.left)}..${Math.round(r.right)} h${Math.round(r.height)}`;
    };
    const scrollsSideways = (el: Element) => {
      const { overflowX } = getComputedStyle(el);
      return overflowX === 'auto' || overflowX === 'scroll';
    };
    // A row that scrolls sideways and itself lies within the screen: what it holds may lie past the edge.
    const inScroller = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (scrollsSideways(a)) {
          const r = a.getBoundingClientRect();
          return r.left >= -0.5 && r.right <= innerWidth + 0.5;
        }
      }
      return false;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    // A link counts as a button when it is drawn as one (a border or a fill), not a link in running text.
    const drawnAsButton = (el: Element) => {
      const s = getComputedStyle(el);
      return s.display !== 'inline' && (Number.parseFloat(s.borderTopWidth) > 0 || Number.parseFloat(s.borderBottomWidth) > 0 || s.backgroundColor !== 'rgba(0, 0, 0, 0)');
    };
    // The fade is a mask whose gradient stops are 0 px at an edge that does not fade.
    const fades = (el: Element) => /(^|[^\d.])([1-9]\d*(\.\d+)?|0\.\d*[1-9])px/.test(getComputedStyle(el).maskImage);
    const pastEdge: string[] = [];
    const short: string[] = [];
    const unfaded: string[] = [];
    const needlessFade: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if ((r.right > innerWidth + 0.5 || r.left < -0.5) && !inScroller(el)) pastEdge.push(describe(el));
      const target = el.matches('button, [role="tab"], [role="button"], label:has(> input[type="radio"])') || (el.matches('a[href]') && drawnAsButton(el));
      if (target && r.height < 44 - 0.01) short.push(describe(el));
      // A row of chips (not a carousel of banners): targets of a chip's height side by side.
      const chipRow = el.children.length > 1 && [...el.children].every((c) => c.matches('button, a, label, [role="tab"]') && c.getBoundingClientRect().height <= 48);
      if (chipRow && scrollsSideways(el)) {
        if (el.scrollWidth > el.clientWidth + 1 && !fades(el)) unfaded.push(describe(el));
        if (el.scrollWidth <= el.clientWidth && fades(el)) needlessFade.push(describe(el));
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, pastEdge, short, unfaded, needlessFade };
  });
}
