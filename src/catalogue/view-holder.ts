import { judgeView, pageReads } from "./judged-view.js";
import { staleInterval } from "./verified-now.js";
import type { CatalogueView } from "./view.js";

/**
 * Holds the current catalogue view. Swapping is one reference assignment, so a request that took
 * the view at its start finishes on that version while new requests see the new one.
 *
 * With a clock (issue 46 §5, T460, T462), the view handed out is judged at the clock's time: when the
 * clock leaves the interval in which the sellers' stale pages stay the same, the view is judged
 * again (once per version and stale pages) and swapped in, so `verified` is judged when an answer is
 * served. One comparison per {@link current} otherwise. Without one, views are served as built.
 */
export class ViewHolder {
  #view: CatalogueView | null;
  readonly #listeners: ((view: CatalogueView) => void)[] = [];
  readonly #clock: (() => number) | undefined;
  /** The clock interval [from, until) in which the current view's judgement holds. */
  #from = Number.NEGATIVE_INFINITY;
  #until = Number.POSITIVE_INFINITY;

  /**
   * @param clock epoch ms now (`Date.now` in a server; a fixed time in tests); absent: no re-judging
   */
  constructor(view: CatalogueView | null = null, clock?: () => number) {
    this.#clock = clock;
    this.#view = view ? this.#judged(view) : null;
  }

  current(): CatalogueView | null {
    const view = this.#view;
    if (!view || !this.#clock) return view;
    const t = this.#clock();
    if (t >= this.#from && t < this.#until) return view;
    const judged = this.#judged(view, t);
    if (judged !== view) this.#publish(judged);
    return judged;
  }

  swap(view: CatalogueView): void {
    this.#publish(this.#judged(view));
  }

  /**
   * Calls `listener` after every swap, with the new view (the HTTP app builds the version's
   * responses there, issue 6 §1). Requests never wait for it: a response not built yet is rendered
   * on demand.
   */
  onSwap(listener: (view: CatalogueView) => void): void {
    this.#listeners.push(listener);
  }

  #publish(view: CatalogueView): void {
    this.#view = view;
    for (const listener of this.#listeners) listener(view);
  }

  /** `view` judged at the clock's time (T460), remembering the interval its judgement holds in. */
  #judged(view: CatalogueView, t: number | undefined = this.#clock?.()): CatalogueView {
    if (t === undefined) return view;
    const interval = staleInterval(pageReads(view.sources, view.judgement.sellers), t);
    this.#from = interval.from;
    this.#until = interval.until;
    return judgeView(view, t);
  }
}
