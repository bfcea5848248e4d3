/**
 * One client's D24 window as the in-process counter holds it: how many requests it made since
 * the window started, and when the window ends. The same fields as rate-limiter-flexible's
 * `RateLimiterRes`, so both kinds of count are read alike (see `Count` in rate-limit.ts).
 */
export class ClientWindow {
  /** Requests counted in this window, the latest included (over the limit too). */
  consumedPoints = 0;
  /** Clock time (ms) at which the window ends. */
  endsAt = 0;
  /** ms left in the window at the latest count. */
  msBeforeNext = 0;
}

let turnNow = 0;
let turnFresh = false;
const turnEnds = () => {
  turnFresh = false;
};

/**
 * The wall clock (ms) read once per event-loop turn: the first call in a turn reads `Date.now()`
 * and the rest of the turn reuses it (a `setImmediate` marks the turn's end). Under load a turn
 * answers many requests, and a clock read costs ~0.1 µs in this VM, about 0.5 % of a small
 * response; a turn lasts milliseconds, against a 60 s window (T231).
 */
export function turnClock(): number {
  if (!turnFresh) {
    turnNow = Date.now();
    turnFresh = true;
    setImmediate(turnEnds);
  }
  return turnNow;
}

/**
 * The D24 count of one process, kept synchronously in memory (issue 30 §2, T231): a fixed window
 * per client that starts with its first request and lasts `windowMs`, the rule of
 * rate-limiter-flexible's memory store (T130) without its promise, result object and key string
 * per request. Counting a request looks up the client's window, starts a new one when it ended
 * and adds one; nothing is allocated but a client's first window, and the clock is read once per
 * event-loop turn ({@link turnClock}). Ended windows are dropped
 * every `windowMs` by an unref'd timer (a count never depends on that sweep).
 */
export class WindowCounter {
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, ClientWindow>();
  #sweeper: NodeJS.Timeout | null = null;

  /**
   * @param windowMs window length, ms (> 0)
   * @param now the clock, ms ({@link turnClock}; tests pass a fake one)
   */
  constructor(windowMs: number, now: () => number = turnClock) {
    if (!(windowMs > 0)) throw new Error("a rate-limit window needs windowMs > 0");
    this.windowMs = windowMs;
    this.#now = now;
  }

  /**
   * Counts one request of `key` (a client IP), or `points` of them (an MCP batch, T195), and
   * returns its window: the counter's own object, to be read at once (the next count of the same
   * client changes it).
   */
  hit(key: string, points = 1): ClientWindow {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (window === undefined) {
      window = new ClientWindow();
      this.#windows.set(key, window);
      this.#sweeper ??= setInterval(() => this.sweep(), this.windowMs).unref();
    }
    if (window.endsAt <= now) {
      window.consumedPoints = 0;
      window.endsAt = now + this.windowMs;
    }
    window.consumedPoints += points;
    window.msBeforeNext = window.endsAt - now;
    return window;
  }

  /** Clients with a window (ended or not) held now. */
  get size(): number {
    return this.#windows.size;
  }

  /** Drops the windows that have ended (their clients start afresh either way). */
  sweep(): void {
    const now = this.#now();
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    if (this.#windows.size === 0 && this.#sweeper) {
      clearInterval(this.#sweeper);
      this.#sweeper = null;
    }
  }

  /** Stops the sweep timer and forgets every window (the app is closing). */
  clear(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
    this.#windows.clear();
  }
}
