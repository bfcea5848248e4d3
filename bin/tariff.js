#!/usr/bin/env node
// Runs the compiled CLI in build/ (made by `npm install`'s prepare, or `npm run build:server`);
// a checkout that was never built runs the TypeScript through tsx instead (issue 16, T133).
import { existsSync } from "node:fs";

const compiled = new URL("../build/cli/main.js", import.meta.url);
if (existsSync(compiled)) await import(compiled.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
