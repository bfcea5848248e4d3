import { createHash } from "node:crypto";
import { Feed } from "feed";
import { z } from "zod";
import { defineEndpoint, enumParam } from "../endpoint.js";
import type { ApiChange } from "../schemas.js";
import type { CatalogueView } from "../view.js";
import { ChangesInput, listChanges } from "./changes.js";

/**
 * The query of `/changes.xml`: that of `/changes`, and `link` (T205): `api` (D19, the default) links
 * each item to the model's API endpoint, `web` to the model's page of the web catalogue.
 */
export const ChangesFeedInput = ChangesInput.extend({
  link: enumParam(
    "link",
    ["api", "web"],
    "What each item links to: `api` (default, D19) the model's endpoint `/api/v1/models/{provider}/{model}`, " +
      "`web` the model's page of the web catalogue `/m/{provider}/{model}` (T205).",
  ).default("api"),
});

/** D19 Content-Type of `/changes.xml`. */
export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";

/**
 * GET /changes.xml (D19): the same query, validation and items as `/changes`, as RSS 2.0 built
 * with the `feed` library. One item per change record in the same order.
 * @param baseUrl absolute origin for links, e.g. `https://tariff.example` (PUBLIC_BASE_URL, else the request's host)
 * @throws CatalogueError exactly as {@link listChanges}
 */
export function changesFeed(view: CatalogueView, input: z.output<typeof ChangesFeedInput>, baseUrl: string): string {
  const { data } = listChanges(view, input);
  const base = baseUrl.replace(/\/+$/, "");
  const updated = new Date(view.version);
  const feed = new Feed({
    title: "Tariff — AI model price changes",
    description: "Market moves in the Tariff catalogue of AI-model prices",
    id: `${base}/api/v1/changes`,
    link: `${base}/api/v1/changes`,
    copyright: "Prices are facts; see /api/v1/sources for each source's licence",
    updated,
    generator: "Tariff",
  });
  for (const c of data) {
    feed.addItem({
      title: itemTitle(c),
      id: changeGuid(c),
      link: input.link === "web" ? `${base}/m/${c.model}` : `${base}/api/v1/models/${c.model}`,
      date: new Date(c.occurredAt),
      // An announcement says when it takes effect (T337).
      description: `${c.kind} in channel ${c.channel} (${c.displayUnit})${c.effectiveFrom ? `, effective ${c.effectiveFrom.slice(0, 10)}` : ""}`,
      category: [{ name: c.kind }],
    });
  }
  return feed.rss2();
}

/** D19 title: "<modelName> (<providerName>): <label> <old> → <new>", a null amount as "—". */
export function itemTitle(c: ApiChange): string {
  const amount = (a: number | null) => (a === null ? "—" : String(a));
  return `${c.modelName} (${c.providerName}): ${c.label} ${amount(c.oldAmount)} → ${amount(c.newAmount)}`;
}

/** A guid stable for the change: the same record always hashes to the same text. */
export function changeGuid(c: ApiChange): string {
  const key = [c.occurredAt, c.kind, c.model, c.channel, c.label].join("|");
  return `tariff-change-${createHash("sha1").update(key).digest("hex").slice(0, 20)}`;
}

/** GET /changes.xml (D19): not a tool (an assistant reads GET /changes). */
export const changesFeedEndpoint = defineEndpoint({
  name: "changes_feed",
  summary: "Recent market moves as RSS 2.0",
  description:
    "The same parameters, validation, headers and errors as GET /changes, and `link` (T205); one item per change (D19).",
  path: "/changes.xml",
  maxAge: 300,
  contentType: RSS_CONTENT_TYPE,
  usesBaseUrl: true,
  input: ChangesFeedInput,
  output: z.string().meta({ description: "RSS 2.0 document" }),
  tool: null,
  run: (view, input, _path, context) => changesFeed(view, input, context.baseUrl),
});
