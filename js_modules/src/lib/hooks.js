// Small hooks shared by the widgets.
import { useEffect, useRef } from 'react';

// ReactPy hands over a new function for every Python handler on every update: keep the latest
// one in a ref so effects and listeners need not re-subscribe.
export function useLatest(value) {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}

// Calls `effect` when `value` changes after the first render (not on mount).
export function useChangeEffect(effect, value) {
  const previous = useRef(value);
  useEffect(() => {
    if (Object.is(previous.current, value)) return;
    previous.current = value;
    effect(value);
  }, [value]); // eslint-disable-line react-hooks/exhaustive-deps
}
