import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ViewHolder } from "../catalogue/view-holder.js";
import { locationPath } from "../domain/location-path.js";
import { lookupTable } from "../domain/lookup-table.js";
import { modelHead, type PageHead, ROUTE_HEADS, withHead } from "./page-head.js";

/** Where `npm run build:web` (run by `npm install`'s `prepare`) writes the page (T120). */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL("../../dist/web/", import.meta.url));

/**
 * The page's own routes (T121, T207): each answers the same `index.html` (with its own head) and
 * the page's router draws the view, so every one of them is a shareable URL.
 */
export const WEB_ROUTES = [
  "/",
  "/m/:provider/:model",
  "/cost",
  "/compare",
  "/changes",
  "/sources",
  "/confidence",
] as const;

/** Addresses people type for a page that lives elsewhere (T207): a permanent redirect. */
export const WEB_REDIRECTS: Readonly<Record<string, string>> = lookupTable({
  "/index.html": "/",
  "/pricing": "/",
  "/prices": "/",
  "/models": "/",
  "/calculator": "/cost",
});

/** Paths that are never the page's: the API, its documentation, MCP and the built files. */
const NOT_THE_PAGE = /^\/(?:api|docs|mcp|assets|openapi)(?:\/|$)/;

/** Options of {@link registerWeb}. */
export interface WebOptions {
  /** The built page: a folder holding `index.html` and `assets/` (default {@link DEFAULT_WEB_ROOT}). */
  readonly root?: string;
  /**
   * The served catalogue, read for a model page's head (T207: its price in the link preview, 404
   * for an unknown model, 308 for an alias). Without it every model address answers the plain page.
   */
  readonly views?: ViewHolder;
}

/** True when the built page exists at `root` (a checkout installed with `npm install` has it). */
export function webBuildExists(root: string = DEFAULT_WEB_ROOT): boolean {
  return existsSync(join(root, "index.html"));
}

/**
 * Mounts the web catalogue (issue 18, T120–T122; issue 28, T207) on the app: `index.html` at each of
 * {@link WEB_ROUTES} (`no-cache`) with the route's title, description and Open Graph tags, a model
 * page's from the catalogue; the hashed files of `assets/` (`immutable`, a year) with the build's
 * brotli and gzip twins chosen per `Accept-Encoding`; {@link WEB_REDIRECTS} and a page address with a
 * trailing slash answer 308 to the page; any other address a browser asks for (it accepts
 * `text/html`) is the page's not-found view with status 404. The API, its problems and every
 * request that does not ask for HTML are untouched: they keep the API's 404 problem.
 * @throws Error when `root` holds no build (run `npm run build:web`)
 */
export async function registerWeb(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const root = options.root ?? DEFAULT_WEB_ROOT;
  if (!webBuildExists(root)) throw new Error(`no web catalogue build in ${root}; run \`npm run build:web\``);
  // Read once: the build is registered at start (T122: rebuild, then restart).
  const index = readFileSync(join(root, "index.html"), "utf8");
  const dataAsOf = () => options.views?.current()?.meta.freshness.newestEvidenceAt ?? null;
  const page = (reply: FastifyReply, head: PageHead, status = 200) =>
    reply
      .code(status)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(withHead(index, { ...head, dataAsOf: dataAsOf() }));
  const notFound = (reply: FastifyReply) =>
    page(
      reply,
      { title: "Page not found · Tariff", description: "There is no page at this address.", noindex: true },
      404,
    );
  // Encapsulated, so the static plugin's reply decoration meets none of the docs page's.
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: join(root, "assets"),
      prefix: "/assets/",
      // Every built file is registered once at start; nothing else under /assets/ is looked up.
      wildcard: false,
      preCompressed: true,
      immutable: true,
      maxAge: "365d",
      index: false,
      decorateReply: false,
    });
    for (const url of WEB_ROUTES) {
      if (url === "/m/:provider/:model") continue;
      const head = ROUTE_HEADS[url] ?? ROUTE_HEADS["/"]!;
      scope.get(url, (_request, reply) => page(reply, head));
    }
    scope.get<{ Params: { provider: string; model: string } }>("/m/:provider/:model", (request, reply) => {
      const view = options.views?.current();
      const id = `${request.params.provider}/${request.params.model}`;
      if (!view) return page(reply, ROUTE_HEADS["/"]!);
      const found = modelHead(view, id);
      if (found.kind === "moved") return redirect(request, reply, `/m/${locationPath(found.id)}`);
      return page(reply, found.head, found.kind === "missing" ? 404 : 200);
    });
    // Everything else a browser asks for: a redirect to the page it names, or the page's 404 (T207).
    scope.get("/*", (request, reply) => {
      const [path = "/"] = request.url.split("?");
      if (NOT_THE_PAGE.test(path) || !acceptsHtml(request)) return reply.callNotFound();
      const moved = WEB_REDIRECTS[path.replace(/\/+$/, "") || "/"];
      if (moved) return redirect(request, reply, moved);
      if (path.length > 1 && path.endsWith("/")) {
        const bare = path.replace(/\/+$/, "");
        if (isPageRoute(bare)) return redirect(request, reply, bare);
      }
      return notFound(reply);
    });
  });
}

/** True for a path one of {@link WEB_ROUTES} answers. */
function isPageRoute(path: string): boolean {
  return (WEB_ROUTES as readonly string[]).includes(path) || /^\/m\/[^/]+\/[^/]+$/.test(path);
}

/** A client that asks for HTML by name (a browser); API clients and `*\/*` keep the problem. */
function acceptsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/.test(String(request.headers.accept ?? ""));
}

/** 308 to `path`, the request's query kept. */
function redirect(request: FastifyRequest, reply: FastifyReply, path: string) {
  const search = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
  return reply.code(308).header("cache-control", "no-cache").redirect(`${path}${search}`, 308);
}
