import { subscribe } from "node:diagnostics_channel";
import { existsSync } from "node:fs";
import { LIVE_RUN_CHANNEL, LIVE_RUN_STAGES, type LiveRunStageMessage } from "../src/ingest/live-run.js";

/**
 * Test-only slow compute phase (issue 33 §4, T260), preloaded into an ingester the lock test
 * spawns: `node --import tsx --import ./test/stall-hook.ts bin/tariff.js ingest` with `STALL_AT`
 * (a stage of the live run, T150) and either `STALL_MS` (block that long) or `STALL_UNTIL` (block
 * until that file exists). Nothing of it ships in `src/`. When the run enters the stage, the hook
 * says `stall-hook: stalling` on stderr, then blocks the run's thread the way a long synchronous
 * compute phase does: no timer and no I/O callback of that thread runs meanwhile. It blocks in
 * `Atomics.wait` (slices of 50 ms between looks for the file), which costs no CPU on the shared
 * machine, where a busy loop would starve the thread just the same.
 */
const stage = process.env.STALL_AT ?? "";
const ms = Number(process.env.STALL_MS ?? "0");
const until = process.env.STALL_UNTIL ?? "";
if (!(LIVE_RUN_STAGES as readonly string[]).includes(stage) || !(ms > 0 || until !== ""))
  throw new Error(`stall-hook: STALL_AT must name one of ${LIVE_RUN_STAGES.join(", ")}, with STALL_MS or STALL_UNTIL`);

const cell = new Int32Array(new SharedArrayBuffer(4));
subscribe(LIVE_RUN_CHANNEL, (message) => {
  if ((message as LiveRunStageMessage).stage !== stage) return;
  process.stderr.write("stall-hook: stalling\n");
  if (until === "") Atomics.wait(cell, 0, 0, ms);
  else while (!existsSync(until)) Atomics.wait(cell, 0, 0, 50);
  process.stderr.write("stall-hook: resumed\n");
});
