import { describe, expect, it } from "vitest";
import { matchGlob } from "./glob.ts";

describe("matchGlob", () => {
  it("matches any run of characters with *, dots included", () => {
    expect(matchGlob("*.example.com", "shop.example.com")).toBe(true);
    expect(matchGlob("*.example.com", "a.b.example.com")).toBe(true);
    expect(matchGlob("*.example.com", "example.com")).toBe(false);
    expect(matchGlob("tmp-*", "tmp-")).toBe(true);
    expect(matchGlob("*", "anything.example.org")).toBe(true);
  });

  it("matches exactly one character with ?", () => {
    expect(matchGlob("s?.example.com", "s1.example.com")).toBe(true);
    expect(matchGlob("s?.example.com", "s.example.com")).toBe(false);
    expect(matchGlob("s?.example.com", "s12.example.com")).toBe(false);
  });

  it("ignores case and takes every other character literally", () => {
    expect(matchGlob("*.EXAMPLE.com", "shop.example.COM")).toBe(true);
    expect(matchGlob("example.com", "exampleXcom")).toBe(false);
    expect(matchGlob("a+b(1)[x]^$|{2}.example.com", "a+b(1)[x]^$|{2}.example.com")).toBe(true);
  });

  it("matches the whole name, not a part of it", () => {
    expect(matchGlob("example.com", "shop.example.com")).toBe(false);
    expect(matchGlob("shop.*", "myshop.example.com")).toBe(false);
  });
});
