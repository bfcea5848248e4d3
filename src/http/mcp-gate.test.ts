import { describe, expect, it } from "vitest";
import { McpGate } from "./mcp-gate.js";

// T241: /mcp POSTs run their tools one at a time; a bounded number wait, the next is refused.

describe("McpGate", () => {
  it("lets `running` in, queues `waiting`, refuses the next, and hands turns over in order", async () => {
    const gate = new McpGate(1, 2);
    expect(gate.enter()).toBe(true);
    const order: number[] = [];
    const second = gate.enter();
    const third = gate.enter();
    expect(second).toBeInstanceOf(Promise);
    expect(gate.enter()).toBe(false); // two already wait
    void (second as Promise<boolean>).then(() => order.push(2));
    void (third as Promise<boolean>).then(() => order.push(3));
    gate.leave();
    expect(await second).toBe(true);
    expect(order).toEqual([2]);
    gate.leave();
    expect(await third).toBe(true);
    expect(order).toEqual([2, 3]);
    gate.leave();
    // All turns ended: the next enters at once.
    expect(gate.enter()).toBe(true);
  });

  it("hands a turn over in a later turn of the event loop, not in the same microtask drain", async () => {
    const gate = new McpGate(1, 1);
    gate.enter();
    let resumed = false;
    void (gate.enter() as Promise<boolean>).then(() => {
      resumed = true;
    });
    gate.leave();
    await Promise.resolve();
    await Promise.resolve();
    expect(resumed).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.resolve();
    expect(resumed).toBe(true);
  });
});
