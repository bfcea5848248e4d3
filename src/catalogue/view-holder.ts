import type { CatalogueView } from "./view.js";

/**
 * Holds the current catalogue view. Swapping is one reference assignment, so a request that took
 * the view at its start finishes on that version while new requests see the new one.
 */
export class ViewHolder {
  #view: CatalogueView | null;
  readonly #listeners: ((view: CatalogueView) => void)[] = [];

  constructor(view: CatalogueView | null = null) {
    this.#view = view;
  }

  current(): CatalogueView | null {
    return this.#view;
  }

  swap(view: CatalogueView): void {
    this.#view = view;
    for (const listener of this.#listeners) listener(view);
  }

  /**
   * Calls `listener` after every swap, with the new view (the HTTP app builds the version's
   * responses there, issue 6 §1). Requests never wait for it: a response not built yet is rendered
   * on demand.
   */
  onSwap(listener: (view: CatalogueView) => void): void {
    this.#listeners.push(listener);
  }
}
