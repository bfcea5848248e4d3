/** Exit status of a process ended by a signal it did not finish handling (128 + the signal's number). */
const SIGNAL_EXIT: Readonly<Record<"SIGINT" | "SIGTERM", number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Stops the process on SIGINT or SIGTERM, saying so (issue 15, T97): `begin` is called with the
 * signal, says on stderr what stopping does, and returns the work that stops; the process exits 0
 * once it is done (1 when it fails, saying why). A second signal while stopping exits at once.
 */
export function onStopSignal(begin: (signal: "SIGINT" | "SIGTERM") => () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: "SIGINT" | "SIGTERM") => {
    if (stopping) {
      process.stderr.write(`tariff: ${signal} again: exiting now\n`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    stopping = true;
    begin(signal)().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`tariff: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
}
