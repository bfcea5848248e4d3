/**
 * How many `/mcp` POSTs run their tools at once, and how many may wait (issue 26 §3, T241). A
 * tool call is synchronous CPU work (a `list_models` page of 500 is tens of ms), so sixteen
 * greedy clients at once would queue every other request of the process behind all of theirs;
 * through the gate they queue behind one another, and an API request waits for at most the one
 * POST that is running. Waiting holds only the parsed request (at most a few messages, T195).
 */
export class McpGate {
  readonly running: number;
  readonly waiting: number;
  #active = 0;
  readonly #queue: (() => void)[] = [];

  /**
   * @param running POSTs that run at once
   * @param waiting POSTs that may wait for their turn; one more is refused ({@link enter} false)
   */
  constructor(running: number, waiting: number) {
    this.running = running;
    this.waiting = waiting;
  }

  /**
   * Waits for a turn. Resolves true when the caller runs (and must call {@link leave} after),
   * false at once when the queue is full (the caller answers 503 and must not call leave).
   */
  enter(): Promise<boolean> | boolean {
    if (this.#active < this.running) {
      this.#active++;
      return true;
    }
    if (this.#queue.length >= this.waiting) return false;
    return new Promise((resolve) => this.#queue.push(() => resolve(true)));
  }

  /**
   * Ends a turn: the next waiting POST runs, in a later turn of the event loop. Resumed at once, it
   * would run in the same microtask drain as the one that ended, and a queue of POSTs would run
   * back to back without the loop reading any other socket.
   */
  leave(): void {
    const next = this.#queue.shift();
    if (next) setImmediate(next);
    else this.#active--;
  }
}
