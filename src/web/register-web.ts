import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Where `npm run build:web` (run by `npm install`'s `prepare`) writes the page (T120). */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL("../../dist/web/", import.meta.url));

/**
 * The page's own routes (T121): each answers the same `index.html` and the page's router draws
 * the view, so every one of them is a shareable URL. Any other path stays the API's 404 problem.
 */
export const WEB_ROUTES = ["/", "/m/:provider/:model", "/compare", "/changes", "/sources"] as const;

/** Options of {@link registerWeb}. */
export interface WebOptions {
  /** The built page: a folder holding `index.html` and `assets/` (default {@link DEFAULT_WEB_ROOT}). */
  readonly root?: string;
}

/** True when the built page exists at `root` (a checkout installed with `npm install` has it). */
export function webBuildExists(root: string = DEFAULT_WEB_ROOT): boolean {
  return existsSync(join(root, "index.html"));
}

/**
 * Mounts the web catalogue (issue 18, T120–T122) on the app: `index.html` at each of
 * {@link WEB_ROUTES} (`no-cache`, so a new build is seen at once) and the hashed files of
 * `assets/` (`immutable`, a year), both with the build's brotli and gzip twins chosen per
 * `Accept-Encoding`. The page is a client of the public API only: this mount serves files and
 * reads nothing of the catalogue.
 * @throws Error when `root` holds no build (run `npm run build:web`)
 */
export async function registerWeb(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const root = options.root ?? DEFAULT_WEB_ROOT;
  if (!webBuildExists(root)) throw new Error(`no web catalogue build in ${root}; run \`npm run build:web\``);
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
    await scope.register(fastifyStatic, {
      root,
      serve: false,
      decorateReply: true,
      preCompressed: true,
      cacheControl: false,
    });
    for (const url of WEB_ROUTES)
      scope.get(url, (_request, reply) => {
        reply.header("cache-control", "no-cache");
        return reply.sendFile("index.html");
      });
  });
}
