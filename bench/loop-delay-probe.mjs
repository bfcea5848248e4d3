// Preloaded into a server by bench/publish-pause.mjs (`node --import`): every 500 ms writes the
// longest event-loop block of that half second to stderr as `loop-delay {"t":…,"maxMs":…,"cpuMs":…}`,
// with the CPU time the process got in it (a block longer than that CPU time was the machine, not us)
// and, on Linux, `mainCpuMs`: the main thread's own (the process's includes worker threads, T470).
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** The main thread's user + system CPU, ms (10 ms ticks); 0 where /proc is not there. */
const mainCpu = () => {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
};

const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
let cpu = process.cpuUsage();
let main = mainCpu();
setInterval(() => {
  const used = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  const cpuMs = (used.user + used.system) / 1000;
  const mainNow = mainCpu();
  const mainCpuMs = mainNow - main;
  main = mainNow;
  process.stderr.write(`loop-delay ${JSON.stringify({ t: Date.now(), maxMs: h.max / 1e6, cpuMs, mainCpuMs })}\n`);
  h.reset();
}, 500).unref();
