/**
 * The week grid on a narrow screen (issue 23 item 5): the seven days are wider than the screen, so
 * the grid scrolls sideways. These say which edges hide days (a fade and an enabled arrow there)
 * and how far one arrow press scrolls.
 */

export interface WeekScrollState {
  /** The days are wider than the visible area. */
  overflows: boolean;
  /** Days are hidden to the left. */
  moreBefore: boolean;
  /** Days are hidden to the right. */
  moreAfter: boolean;
}

/** From the scroll box's scrollLeft, clientWidth and scrollWidth (1 px of slack for rounding). */
export function weekScrollState(scrollLeft: number, clientWidth: number, scrollWidth: number): WeekScrollState {
  const overflows = scrollWidth - clientWidth > 1;
  return { overflows, moreBefore: overflows && scrollLeft > 1, moreAfter: overflows && scrollLeft + clientWidth < scrollWidth - 1 };
}

/** One arrow press: the visible days' width (less the hour gutter), whole days at a time, at least one day. */
export function weekScrollStep(clientWidth: number, gutter: number, dayWidth: number): number {
  if (dayWidth <= 0) return Math.max(0, clientWidth - gutter);
  return Math.max(1, Math.floor((clientWidth - gutter) / dayWidth)) * dayWidth;
}
