// Preloaded into a server by bench/publish-pause.mjs (`node --import`): every 500 ms writes the
// longest event-loop block of that half second to stderr as `loop-delay {"t":…,"maxMs":…,"cpuMs":…}`,
// with the CPU time the process got in it (a block longer than that CPU time was the machine, not us).
import { monitorEventLoopDelay } from "node:perf_hooks";

const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
let cpu = process.cpuUsage();
setInterval(() => {
  const used = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  const cpuMs = (used.user + used.system) / 1000;
  process.stderr.write(`loop-delay ${JSON.stringify({ t: Date.now(), maxMs: h.max / 1e6, cpuMs })}\n`);
  h.reset();
}, 500).unref();
