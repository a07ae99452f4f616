import { useRef, useState, type KeyboardEvent } from 'react';

/**
 * One tab stop for a list of buttons: the arrow keys go from one to the next (the next is to the left in
 * a right-to-left page), Home and End to the first and the last. Spread `item(i)` on the i-th button.
 */
export function useRovingFocus(count: number) {
  const [current, setCurrent] = useState(0);
  const items = useRef<(HTMLElement | null)[]>([]);
  const at = Math.max(0, Math.min(current, count - 1));

  function goTo(i: number) {
    const to = Math.max(0, Math.min(count - 1, i));
    setCurrent(to);
    items.current[to]?.focus();
  }

  return (i: number) => ({
    ref: (el: HTMLElement | null) => void (items.current[i] = el),
    tabIndex: i === at ? 0 : -1,
    onFocus: () => setCurrent(i),
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      const rtl = getComputedStyle(e.currentTarget).direction === 'rtl';
      const step = { ArrowRight: rtl ? -1 : 1, ArrowDown: 1, ArrowLeft: rtl ? 1 : -1, ArrowUp: -1 }[e.key];
      if (step && !e.shiftKey) goTo(i + step);
      else if (e.key === 'Home' || e.key === 'End') goTo(e.key === 'Home' ? 0 : count - 1);
      else return;
      e.preventDefault();
    },
  });
}
