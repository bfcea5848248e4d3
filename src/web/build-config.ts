import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { InlineConfig, Plugin } from "vite";
import { DEFAULT_WEB_ROOT } from "./register-web.js";

/** The page's sources: `index.html` and the Preact client beside it (T120). */
export const WEB_CLIENT_DIR = fileURLToPath(new URL("./client/", import.meta.url));

/** Files worth a compressed twin: text over 1 KiB. */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/**
 * Writes a `.br` and a `.gz` twin beside every text file of the build, so the server sends
 * compressed bytes without compressing per request (@fastify/static `preCompressed`, T122).
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "tariff-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * Vite's configuration of the web catalogue build (T120): Preact's JSX through esbuild (no Babel
 * preset), hashed files under `assets/`, no source maps, no public CDN or font: everything the
 * page needs is in the build. `outDir` defaults to {@link DEFAULT_WEB_ROOT}; tests build elsewhere.
 */
export function webBuildConfig(outDir: string = DEFAULT_WEB_ROOT): InlineConfig {
  return {
    configFile: false,
    root: WEB_CLIENT_DIR,
    base: "/",
    logLevel: "warn",
    esbuild: { jsx: "automatic", jsxImportSource: "preact" },
    build: {
      outDir,
      emptyOutDir: true,
      assetsDir: "assets",
      sourcemap: false,
      target: "es2022",
      // The page is small: one script and one stylesheet (T122).
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
    },
    plugins: [precompress()],
  };
}
