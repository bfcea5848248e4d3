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

/** Work stopped by SIGINT/SIGTERM; the CLI exits with {@link exitCode} (130 or 143). */
export class InterruptedError extends Error {
  readonly exitCode: number;
  constructor(
    readonly signal: "SIGINT" | "SIGTERM",
    message: string,
  ) {
    super(message);
    this.exitCode = SIGNAL_EXIT[signal];
  }
}

/** The handle of {@link abortOnStopSignal}. */
export interface StopRequest {
  /** Aborted on the first SIGINT/SIGTERM; its `reason` is the signal's name. */
  readonly signal: AbortSignal;
  /** Removes the handlers (the signals' default action applies again). */
  release(): void;
}

/**
 * For work that can only stop between steps (a replay publishes run by run): the first SIGINT or
 * SIGTERM says on stderr what stopping keeps (`say`) and aborts the returned signal; a second one
 * exits at once (issue 15, T97).
 */
export function abortOnStopSignal(say: (signal: "SIGINT" | "SIGTERM") => string): StopRequest {
  const controller = new AbortController();
  const handle = (signal: "SIGINT" | "SIGTERM") => {
    if (controller.signal.aborted) {
      process.stderr.write(`tariff: ${signal} again: exiting now\n`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    process.stderr.write(`tariff: ${say(signal)}\n`);
    controller.abort(signal);
  };
  process.on("SIGINT", handle);
  process.on("SIGTERM", handle);
  return {
    signal: controller.signal,
    release() {
      process.off("SIGINT", handle);
      process.off("SIGTERM", handle);
    },
  };
}

/** The signal that aborted `signal`, if any. */
export function stopSignalOf(signal: AbortSignal): "SIGINT" | "SIGTERM" | undefined {
  return signal.aborted ? (signal.reason as "SIGINT" | "SIGTERM") : undefined;
}
