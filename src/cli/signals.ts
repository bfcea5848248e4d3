import cluster from "node:cluster";

/** Exit status of a process ended by a signal it did not finish handling (128 + the signal's number). */
const SIGNAL_EXIT: Readonly<Record<"SIGINT" | "SIGTERM", number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * How long after the first stop signal another one is the same request delivered again (T356): a
 * terminal's Ctrl-C signals the whole foreground group, and npm and tsx forward it once more to the
 * process that already has it, within tens of milliseconds.
 */
export const REPEAT_WINDOW_MS = 2000;

/**
 * What a stop signal asks (T356), pure: `stop` the first; `repeat` (nothing to do, nothing said) one
 * within `windowMs` of the first, or any later one in a cluster worker (its primary's SIGTERM after
 * the terminal's SIGINT; the primary ends it); `exit-now` a later one elsewhere, the user asking again.
 * @param firstAt when the first stop signal came (ms since the epoch), undefined before it
 */
export function stopSignalMeaning(
  firstAt: number | undefined,
  now: number,
  inWorker: boolean,
  windowMs: number = REPEAT_WINDOW_MS,
): "stop" | "repeat" | "exit-now" {
  if (firstAt === undefined) return "stop";
  return inWorker || now - firstAt < windowMs ? "repeat" : "exit-now";
}

/**
 * A SIGINT/SIGTERM listener that calls `first` once, ignores the same request delivered again, and
 * exits at once (130/143, saying so) when asked again after {@link REPEAT_WINDOW_MS} (T97, T356).
 */
function stopSignalListener(first: (signal: "SIGINT" | "SIGTERM") => void): (signal: "SIGINT" | "SIGTERM") => void {
  let firstAt: number | undefined;
  return (signal) => {
    const meaning = stopSignalMeaning(firstAt, Date.now(), cluster.isWorker);
    if (meaning === "repeat") return;
    if (meaning === "exit-now") {
      process.stderr.write(`tariff: ${signal} again: exiting now\n`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    firstAt = Date.now();
    first(signal);
  };
}

/**
 * Stops the process on SIGINT or SIGTERM, saying so (issue 15, T97): `begin` is called with the
 * signal, says on stderr what stopping does, and returns the work that stops; the process exits 0
 * once it is done (1 when it fails, saying why). The same signal forwarded again (npm, tsx) changes
 * nothing; asked again after {@link REPEAT_WINDOW_MS}, it exits at once (T356).
 */
export function onStopSignal(begin: (signal: "SIGINT" | "SIGTERM") => () => Promise<void>): void {
  const handle = stopSignalListener((signal) => {
    begin(signal)().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`tariff: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  });
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
 * SIGTERM says on stderr what stopping keeps (`say`) and aborts the returned signal; a repeat of it is
 * ignored, and asked again after {@link REPEAT_WINDOW_MS} it exits at once (issue 15, T97, T356).
 */
export function abortOnStopSignal(say: (signal: "SIGINT" | "SIGTERM") => string): StopRequest {
  const controller = new AbortController();
  const handle = stopSignalListener((signal) => {
    process.stderr.write(`tariff: ${say(signal)}\n`);
    controller.abort(signal);
  });
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
