import type { CatalogueView } from "../catalogue/view.js";
import { resolveModelId } from "../catalogue/view.js";
import { listedPrice } from "../domain/listed-price.js";
import { lookupTable } from "../domain/lookup-table.js";

/**
 * What the server writes into the `<head>` of a page (T207): title, description and Open Graph
 * tags, so a shared link previews the page (previewers do not run the page's script), and
 * `noindex` for a not-found page.
 */
export interface PageHead {
  readonly title: string;
  readonly description: string;
  readonly noindex?: boolean;
  /**
   * The newest successful evidence of the served catalogue (`/meta` freshness, T223), written as
   * `<meta name="tariff:data-as-of">` so the page states its age on first paint: a notice that
   * arrived with `/meta` later would push the page down (T227, issue 28's layout-shift bound).
   */
  readonly dataAsOf?: string | null;
}

/** The heads of the page's fixed routes (the page sets the same after an in-page navigation). */
export const ROUTE_HEADS: Readonly<Record<string, PageHead>> = lookupTable({
  "/": {
    title: "AI model prices · Tariff",
    description:
      "Every AI model's price in every channel, reconciled from several open sources, with confidence, dissent and history.",
  },
  "/cost": {
    title: "What will it cost? · Tariff",
    description:
      "Monthly cost of an LLM workload on every model and channel, cheapest first, from reconciled list prices.",
  },
  "/compare": { title: "Compare models · Tariff", description: "AI models' prices side by side, with their history." },
  "/changes": {
    title: "Changes · Tariff",
    description: "AI model price moves, the makers' own first: increases, cuts and removals, with RSS.",
  },
  "/sources": { title: "Sources · Tariff", description: "The open price sources behind Tariff and their health." },
  "/confidence": {
    title: "What the confidence levels mean · Tariff",
    description: "How sure Tariff is of each price, and the one rule for badges and filters.",
  },
});

/** A model page's head, what its link should preview. */
export type ModelHead =
  | { readonly kind: "found"; readonly head: PageHead }
  | { readonly kind: "moved"; readonly id: string }
  | { readonly kind: "missing"; readonly head: PageHead };

/**
 * The head of `/m/{provider}/{model}` from the served view (T207): the model's listed input and
 * output price (T202) in its description; an alias or former id moves to the canonical id (T67);
 * an unknown id is a not-found head with `noindex`.
 */
export function modelHead(view: CatalogueView, id: string): ModelHead {
  if (!view.byId.has(id)) {
    const target = resolveModelId(view, id);
    if (target && target !== id) return { kind: "moved", id: target };
    return {
      kind: "missing",
      head: {
        title: `Model not found: ${id} · Tariff`,
        description: `The catalogue has no model ${id}.`,
        noindex: true,
      },
    };
  }
  const entry = view.byId.get(id)!;
  const m = entry.model;
  const listed = listedPrice(view.pricesByModel.get(id) ?? []);
  let description: string;
  if (!listed)
    description = `${m.name} (${m.id}): no token price published in any channel. Tariff, open AI-model prices.`;
  else {
    const money = (amount: number, currency: string) =>
      new Intl.NumberFormat("en", {
        style: "currency",
        currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: 6,
      }).format(amount);
    const amounts = [
      listed.input ? `${money(listed.input.amount, listed.input.currency)} input` : null,
      listed.output ? `${money(listed.output.amount, listed.output.currency)} output` : null,
    ]
      .filter(Boolean)
      .join(" / ");
    const whose = listed.channel === "direct" ? "the maker's price" : `via ${listed.seller}`;
    description = `${m.name}: ${amounts} per 1M tokens (${whose}, ${listed.confidence} confidence). Every channel's price with its sources on Tariff.`;
  }
  return { kind: "found", head: { title: `${m.name} prices · Tariff`, description } };
}

/** `text` safe inside an element or a double-quoted attribute (every attribute the fills write). */
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);
const HTML_ESCAPES = lookupTable({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" });

/**
 * `index.html` with the head's title, description and Open Graph tags (and `noindex`): the build's
 * own `<title>` and description are replaced, the rest of the document is untouched. Every fill is
 * a replacement *function* of HTML-escaped text (issue 33 §1, T251): in a replacement string, the
 * `$'`, `` $` ``, `$&`, `$1`, `$<name>` of a requested path or an upstream model name would copy parts
 * of the page into it (40 × `$'` in a path made a 70 MB page).
 */
export function withHead(index: string, head: PageHead): string {
  const tags = [
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="Tariff" />`,
    `<meta name="twitter:card" content="summary" />`,
    head.noindex ? `<meta name="robots" content="noindex" />` : "",
    head.dataAsOf ? `<meta name="tariff:data-as-of" content="${escapeHtml(head.dataAsOf)}" />` : "",
  ]
    .filter(Boolean)
    .join("\n    ");
  const title = `<title>${escapeHtml(head.title)}</title>`;
  const description = `<meta name="description" content="${escapeHtml(head.description)}" />`;
  return index
    .replace(/<title>[^<]*<\/title>/, () => title)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, () => description)
    .replace(/<meta property="og:[^>]*>\s*|<meta name="twitter:card"[^>]*>\s*/g, "")
    .replace("</head>", () => `  ${tags}\n  </head>`);
}
