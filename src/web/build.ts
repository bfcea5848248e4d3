import { build } from "vite";
import { webBuildConfig } from "./build-config.js";

/**
 * `npm run build:web` (run by `npm install` through `prepare`, T120): builds the web catalogue
 * into `dist/web/`, which `tariff serve` mounts at `/`.
 */
await build(webBuildConfig());
process.stderr.write("web catalogue built into dist/web/\n");
