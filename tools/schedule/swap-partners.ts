/**
 * Which placed reviews a scan of changes may swap (issue 46, item 5): two on different days, each within the other's
 * reach. Looked up by day — each review against the reviews on the days of its own reach — so a long window's scan
 * looks at the reviews near each one, not at every pair of the window's reviews (their square, scan after scan).
 */

/**
 * For each review (its day in `days`), the later ones (by index, ascending) it may swap with: on another day, each
 * within the other's `reach` (the first and last day a review on a day may go to).
 */
export function swapPartners(days: readonly number[], reach: (day: number) => readonly [number, number]): number[][] {
  const byDay = new Map<number, number[]>();
  days.forEach((day, index) => {
    const list = byDay.get(day);
    if (list) list.push(index);
    else byDay.set(day, [index]);
  });
  return days.map((day, index) => {
    const [first, last] = reach(day);
    const partners: number[] = [];
    for (let other = first; other <= last; other += 1) {
      if (other === day) continue;
      const [from, to] = reach(other);
      if (day < from || day > to) continue;
      for (const second of byDay.get(other) ?? []) if (second > index) partners.push(second);
    }
    // Ascending, sorted in place by insertion (a few partners each: no work array made, scan after scan).
    for (let at = 1; at < partners.length; at += 1) {
      const entry = partners[at]!;
      let to = at;
      for (; to > 0 && partners[to - 1]! > entry; to -= 1) partners[to] = partners[to - 1]!;
      partners[to] = entry;
    }
    return partners;
  });
}
