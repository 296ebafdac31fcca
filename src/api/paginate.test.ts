/**
 * The listing bound leaves 4x headroom over the 100,000 websites sitesync is built for (DESIGN §12): a bound
 * at exactly 100,000 would make the 100,001st unreadable. 100,001 (and 400,000) read whole; one more is refused.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { type Listing, MAX_ITEMS, readAll } from "./paginate.ts";
import type { Page } from "./types.ts";

/** `total` items at per_page 100, with meta as the API sends it; pages are built when asked for. */
function listing(total: number): Listing<{ id: number }> & { requested: number } {
  const perPage = 100;
  const last = Math.max(1, Math.ceil(total / perPage));
  const fake = {
    requested: 0,
    perPage,
    url: "http://127.0.0.1/api/v1/websites?per_page=100",
    noun: "websites",
    key: (item: { id: number }) => item.id,
    page: async (n: number): Promise<Page<{ id: number }>> => {
      fake.requested++;
      const from = (n - 1) * perPage;
      const data = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => ({ id: from + i + 1 }));
      const meta = { current_page: n, last_page: last, per_page: perPage, total, from: from + 1, to: from + data.length };
      return { data, meta, links: { next: null } };
    },
  };
  return fake;
}

describe("the listing bound", () => {
  it("reads an account of 100,001 websites whole", async () => {
    const items = await readAll(listing(100_001));
    expect(items).toHaveLength(100_001);
    expect(items.at(-1)).toEqual({ id: 100_001 });
  });

  it("reads 400,000 websites, 4x the accounts sitesync is built for, and refuses one more after page 1", async () => {
    expect(MAX_ITEMS).toBe(400_000);
    expect(await readAll(listing(MAX_ITEMS))).toHaveLength(MAX_ITEMS);
    const over = listing(MAX_ITEMS + 1);
    const error = await readAll(over).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain(
      "meta.total says 400001 websites, more than the 400,000 sitesync reads (4 times the 100,000-website accounts sitesync is built for; the cap is fixed)",
    );
    expect(over.requested).toBe(1);
  });
});
