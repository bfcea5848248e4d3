import { describe, expect, it } from "vitest";
import { inventedDataset, inventedPrice } from "../../test/invented-datasets.js";
import { recordedReport } from "../../test/recorded-payloads.js";
import type { Dataset } from "../domain/dataset.js";
import type { Listing } from "../domain/observation.js";
import { modelsDevSource } from "../sources/models-dev/index.js";
import { detectSellerRenames } from "./seller-renames.js";

// Issue 52 §1 (T493, T515): a seller gone from a source while a new one appears with the same API
// base URL and the same listings is a rename. The real case: models.dev's provider `firmware`
// (2026-05-01) is `frogbot` on 2026-06-01, both at `https://app.frogbot.ai/api/v1`. The listings are
// the adapter's parses of the real payloads; the previous version wraps firmware's May listings as
// published prices (one per listing and amount, models.dev's fresh statement); the other API base
// URL below is invented, and said so.

const MAY = "2026-05-01";
const may = recordedReport(modelsDevSource, MAY).listings;
const june = recordedReport(modelsDevSource, "2026-06-01").listings;

/** The previous version as far as the rule reads it: firmware's prices, stated by models.dev. */
function previousOf(listings: readonly Listing[]): Dataset {
  const prices = listings
    .filter((l) => l.seller === "firmware")
    .flatMap((l) =>
      l.prices.map((p) =>
        inventedPrice(`frogbot-test/${l.model}`, "Input (seller: firmware)", p.amount, {
          channel: "other",
          seller: "firmware",
          qualifiers: { seller: "firmware" },
          observations: [{ source: "models-dev", amount: p.amount, fresh: true, listing: l.model }],
        }),
      ),
    );
  return inventedDataset(`${MAY}T00:00:00.000Z`, prices);
}

const previous = previousOf(may);
const detect = (now: readonly Listing[], lastGood: readonly Listing[] | null) =>
  detectSellerRenames(
    previous,
    [{ source: "models-dev", fresh: true, listings: now }],
    lastGood ? new Map([["models-dev", lastGood]]) : new Map(),
  );
const movedTo = (listings: readonly Listing[], seller: string, api: string | undefined) =>
  listings.map((l) => {
    if (l.seller !== seller) return l;
    const { sellerApi: _stated, ...rest } = l;
    return api === undefined ? rest : { ...rest, sellerApi: api };
  });

describe("a seller renamed at the same API base URL (issue 52 §1, T515)", () => {
  it("the payloads state firmware's and frogbot's API base URL: the same one", () => {
    const apis = (listings: readonly Listing[], seller: string) =>
      new Set(listings.filter((l) => l.seller === seller).map((l) => l.sellerApi));
    expect(apis(may, "firmware")).toEqual(new Set(["https://app.frogbot.ai/api/v1"]));
    expect(apis(june, "frogbot")).toEqual(new Set(["https://app.frogbot.ai/api/v1"]));
    expect(june.some((l) => l.seller === "firmware")).toBe(false);
  });

  it("models.dev's firmware → frogbot: one rename, confirmed by the same API base URL", () => {
    const renames = detect(june, may);
    expect(renames).toEqual([
      expect.objectContaining({ from: "firmware", to: "frogbot", sameApi: "app.frogbot.ai/api/v1" }),
    ]);
    expect(renames[0]?.sameListings).toBeGreaterThanOrEqual(3);
  });

  it("the same listings at another API base URL are another seller, not a rename (an invented URL)", () => {
    expect(detect(movedTo(june, "frogbot", "https://api.other-host.example/v1"), may)).toEqual([]);
    // The same URL spelled with another case and a trailing slash is the same URL.
    expect(detect(movedTo(june, "frogbot", "HTTPS://App.Frogbot.ai/api/v1/"), may)).toHaveLength(1);
  });

  it("a side that states no URL leaves the listings rule alone to decide", () => {
    const noUrl = expect.objectContaining({ from: "firmware", to: "frogbot", sameApi: null });
    // The old name's last good listings stored before T515 (no URL), or none carried at all.
    expect(detect(june, movedTo(may, "firmware", undefined))).toEqual([noUrl]);
    expect(detect(june, null)).toEqual([noUrl]);
    // The new name states none.
    expect(detect(movedTo(june, "frogbot", undefined), may)).toEqual([noUrl]);
  });
});
