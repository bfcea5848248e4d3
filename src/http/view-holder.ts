import type { CatalogueView } from "../catalogue/view.js";

/**
 * Holds the current catalogue view. Swapping is one reference assignment, so a request that took
 * the view at its start finishes on that version while new requests see the new one.
 */
export class ViewHolder {
  #view: CatalogueView | null;

  constructor(view: CatalogueView | null = null) {
    this.#view = view;
  }

  current(): CatalogueView | null {
    return this.#view;
  }

  swap(view: CatalogueView): void {
    this.#view = view;
  }
}
