import { setImmediate as turn } from "node:timers/promises";
import { beforeEach } from "vitest";

/**
 * Set-up of every test file (issue 34 §2, T274): a turn of the worker's event loop before each test.
 * vitest runs a file's synchronous tests back to back without one, so a file of short sweeps held
 * its worker as long as all of them together, and the reply to the worker's report of a finished
 * test ("onTaskUpdate") waited behind them until vitest's 60-s RPC timeout failed a run whose every
 * test had passed. With the turn, only a single test that blocks for a minute can.
 */
beforeEach(async () => {
  await turn();
});
