import { describe, expect, it } from "vitest";
import { REPEAT_WINDOW_MS, stopSignalMeaning } from "./signals.js";

describe("stopSignalMeaning: a Ctrl-C forwarded again is one request (T356)", () => {
  const first = 1_000_000;

  it("the first signal stops", () => {
    expect(stopSignalMeaning(undefined, first, false)).toBe("stop");
    expect(stopSignalMeaning(undefined, first, true)).toBe("stop");
  });

  it("one within the window of the first is the same request (npm and tsx forward it within ms)", () => {
    expect(stopSignalMeaning(first, first + 30, false)).toBe("repeat");
    expect(stopSignalMeaning(first, first + REPEAT_WINDOW_MS - 1, false)).toBe("repeat");
  });

  it("one after the window asks again: exit now", () => {
    expect(stopSignalMeaning(first, first + REPEAT_WINDOW_MS, false)).toBe("exit-now");
    expect(stopSignalMeaning(first, first + 60_000, false)).toBe("exit-now");
  });

  it("a cluster worker never exits now: a later one is its primary's SIGTERM, and the primary ends it", () => {
    expect(stopSignalMeaning(first, first + 60_000, true)).toBe("repeat");
  });
});
