import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { useSettled } from "../../debounce.js";
import {
  type CostLinkChange,
  costHref,
  type FormText,
  type Period,
  parseForm,
  textOf,
  type Workload,
} from "./workload.js";

/** The calculator's form state (T348): what is typed, and how to follow a link of the page. */
export interface WorkloadForm {
  readonly per: Period;
  readonly setPer: (per: Period) => void;
  readonly ttl: Workload["ttl"];
  readonly setTtl: (ttl: Workload["ttl"]) => void;
  /** The fields as typed. */
  readonly text: FormText;
  readonly setText: (text: FormText) => void;
  /** The fields whose text is not a count. */
  readonly bad: readonly string[];
  /** Follows a link of the page (replacing the history entry) with the settled workload and `next` changed. */
  readonly go: (next: CostLinkChange) => void;
  /** Fills the form from a usage object or a log: counts, how they are stated, and the request size or count. */
  readonly fill: (w: Partial<Workload> & Pick<Workload, "per">) => void;
}

/**
 * The form of the workload in `urlWorkload` (T208, T348): the typed text settles (300 ms) into the
 * URL when every field is a count, so a view is a link.
 */
export function useWorkloadForm(urlWorkload: Workload): WorkloadForm {
  const { route } = useLocation();
  const [per, setPer] = useState<Period>(urlWorkload.per);
  const [ttl, setTtl] = useState<Workload["ttl"]>(urlWorkload.ttl);
  const [text, setText] = useState<FormText>(() => textOf(urlWorkload));
  // The typed text read as counts; a field that is not a count keeps the URL's workload and says why.
  const parsed = useMemo(() => parseForm(text, per, ttl), [text, per, ttl]);
  const settled = useSettled(parsed, 300);

  // A link is built from the address as it is when it is followed, with the workload the form last
  // settled on: an effect of an older render (the settled workload's own URL update) that runs after
  // a model was picked must neither drop the pick nor put an older workload back in the URL.
  const latest = useRef(settled.workload);
  if (settled.bad.length === 0) latest.current = settled.workload;
  const go = (next: CostLinkChange) => route(costHref(latest.current, next), true);
  useEffect(() => {
    if (settled.bad.length === 0 && JSON.stringify(settled.workload) !== JSON.stringify(urlWorkload)) go({});
  }, [settled]);

  const fill = (w: Partial<Workload> & Pick<Workload, "per">) => {
    const next = { ...parsed.workload, ...w };
    setPer(next.per);
    setText(textOf(next));
  };
  return { per, setPer, ttl, setTtl, text, setText, bad: parsed.bad, go, fill };
}
