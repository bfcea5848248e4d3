import { useEffect, useState } from "preact/hooks";

/** `value`, once it has stayed unchanged for `ms` (typing settles before a request). */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
