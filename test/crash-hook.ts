import { subscribe } from "node:diagnostics_channel";
import { Worker } from "node:worker_threads";
import { LIVE_RUN_CHANNEL, LIVE_RUN_STAGES, type LiveRunStageMessage } from "../src/ingest/live-run.js";

/**
 * Test-only crash injection (issue 7 §6, T150), preloaded into the ingester the crash test spawns:
 * `node --import tsx --import ./test/crash-hook.ts bin/tariff.js ingest` with `CRASH_AT` set.
 * Nothing of it ships in `src/`: it subscribes to the live run's stage channel and SIGKILLs the
 * process when the run enters the stage `CRASH_AT` names. `during-publish:<ms>` kills from another
 * thread `ms` after the run enters `publishing`, while the main thread is inside the publishing
 * transaction (a thread started now, so it needs nothing of the blocked main thread then).
 */
const crashAt = process.env.CRASH_AT ?? "";
const [stage, delay] = crashAt.split(":") as [string, string | undefined];

if (stage === "during-publish") {
  const ms = Number(delay ?? 0);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const code = `const { workerData } = require("node:worker_threads");
    Atomics.wait(workerData.flag, 0, 0);
    const until = Date.now() + workerData.ms;
    while (Date.now() < until) {}
    process.kill(workerData.pid, "SIGKILL");`;
  new Worker(code, { eval: true, workerData: { flag, ms, pid: process.pid } }).unref();
  subscribe(LIVE_RUN_CHANNEL, (message) => {
    if ((message as LiveRunStageMessage).stage !== "publishing") return;
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
} else if ((LIVE_RUN_STAGES as readonly string[]).includes(stage)) {
  subscribe(LIVE_RUN_CHANNEL, (message) => {
    if ((message as LiveRunStageMessage).stage === stage) process.kill(process.pid, "SIGKILL");
  });
} else {
  throw new Error(`crash-hook: CRASH_AT=${JSON.stringify(crashAt)} names no stage of ${LIVE_RUN_STAGES.join(", ")}`);
}
