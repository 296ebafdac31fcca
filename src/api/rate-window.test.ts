import { describe, expect, it } from "vitest";
import { GUESSED_WINDOW_MS, probeTimes, WindowBounds } from "./rate-window.ts";

function bounds(lo: number, hi: number): WindowBounds {
  const b = new WindowBounds();
  b.atLeast(lo);
  b.atMost(hi);
  return b;
}

describe("the window learned (DESIGN §6), never shorter than the server's", () => {
  it("names the minute when a whole-second store's window measured 59.3 s: never 59 s", () => {
    // Laravel's file store ends a window opened at 12.7 s at 72 s: 59.3 s of it, on a 60 s server.
    expect(bounds(58_400, 59_300).learned).toBe(60_000);
  });

  it("names the minute when a longer window's lower bound passes a shorter window's upper one", () => {
    expect(bounds(59_800, 59_300).learned).toBe(60_000);
  });

  it("names the minute when a busy machine read the end's answer late", () => {
    expect(bounds(58_200, 61_800).learned).toBe(60_000);
  });

  it("names a window that is not a whole minute by the whole second above its lower bound", () => {
    expect(bounds(4_900, 5_050).learned).toBe(5_000);
    expect(bounds(89_500, 90_400).learned).toBe(90_000);
    expect(bounds(119_200, 120_700).learned).toBe(120_000);
  });

  it("learns nothing from a refill first seen at the minute assumed: the window may be far shorter", () => {
    expect(bounds(30, 61_050).learned).toBeUndefined();
  });

  it("learns nothing while the bounds are apart, and paces by the upper one", () => {
    const b = bounds(30_000, 62_500);
    expect(b.learned).toBeUndefined();
    expect(b.pacing).toBe(62_500);
  });

  it("paces by the real API's minute until a bound is known", () => {
    expect(new WindowBounds().pacing).toBe(GUESSED_WINDOW_MS);
  });

  it("moves the guess to the next whole minute once a window outlasted it, with no upper bound", () => {
    const b = new WindowBounds();
    b.atLeast(61_000);
    expect(b.pacing).toBe(120_000);
  });

  it("follows a window that grew: the bound widens and the window is learned again", () => {
    const b = bounds(59_000, 60_300);
    expect(b.learned).toBe(60_000);
    b.atMost(180_600, true);
    expect(b.learned).toBeUndefined();
    expect(b.pacing).toBe(180_600);
    expect(b.atLeast(179_500)).toBe(180_000);
  });

  it("never narrows to a shorter bound unless told the window grew", () => {
    const b = bounds(59_000, 60_300);
    b.atMost(180_600);
    expect(b.hi).toBe(60_300);
  });

  it("distrusts a lower bound more than a second above the upper one (someone else's hits)", () => {
    const b = bounds(65_000, 60_200);
    expect(b.lo).toBe(0);
    expect(b.learned).toBeUndefined();
    expect(b.pacing).toBe(60_200);
  });
});

describe("probe times while learning", () => {
  it("spreads them over the guess in a window someone else opened: its end is anywhere in it", () => {
    expect(probeTimes(1_000, 60, new WindowBounds(), false)).toEqual([4_750, 8_500, 16_000, 31_000, 46_000, 61_000]);
    expect(probeTimes(0, 10, new WindowBounds(), false)).toEqual([3_750, 7_500]);
  });

  it("places them early and at the guess in a window this run opened, and between the bounds once known", () => {
    expect(probeTimes(0, 60, new WindowBounds(), true)).toEqual([3_750, 5_303, 7_500, 15_000, 58_200, 60_000]);
    expect(probeTimes(0, 60, bounds(58_000, 65_000), true)).toEqual([59_000, 60_000, 61_000, 62_000, 63_000, 64_000]);
  });

  it("keeps at most one unit in five", () => {
    expect(probeTimes(0, 10, new WindowBounds(), true)).toHaveLength(2);
    expect(probeTimes(0, 4, new WindowBounds(), true)).toEqual([]);
  });
});
