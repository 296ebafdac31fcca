import { describe, expect, it } from "vitest";
import { didYouMean, editDistance } from "./did-you-mean.ts";

const WEBSITE_KEYS = ["domain", "state", "privacy", "password", "email", "exclude_bots", "exclude_params", "exclude_ips", "favorite"];

describe("didYouMean", () => {
  it("finds the key a typo was meant to be", () => {
    expect(didYouMean("privcy", WEBSITE_KEYS)).toBe("privacy");
    expect(didYouMean("pirvacy", WEBSITE_KEYS)).toBe("privacy");
    expect(didYouMean("exclude_ip", WEBSITE_KEYS)).toBe("exclude_ips");
    expect(didYouMean("favourite", WEBSITE_KEYS)).toBe("favorite");
    expect(didYouMean("domian", WEBSITE_KEYS)).toBe("domain");
    expect(didYouMean("emails", WEBSITE_KEYS)).toBe("email");
  });

  it("forgives case, dashes and camelCase", () => {
    expect(didYouMean("excludeBots", WEBSITE_KEYS)).toBe("exclude_bots");
    expect(didYouMean("Exclude-Params", WEBSITE_KEYS)).toBe("exclude_params");
    expect(didYouMean("PRIVACY", WEBSITE_KEYS)).toBe("privacy");
  });

  it("suggests nothing for a word of megabytes, at once, rather than measuring its distance", () => {
    expect(didYouMean(`privacy${"x".repeat(5_000_000)}`, WEBSITE_KEYS)).toBeUndefined();
  });

  it("suggests nothing for a word that is no near miss", () => {
    expect(didYouMean("color", WEBSITE_KEYS)).toBeUndefined();
    expect(didYouMean("url", WEBSITE_KEYS)).toBeUndefined();
    expect(didYouMean("x", [])).toBeUndefined();
  });
});

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and swaps as one each", () => {
    expect(editDistance("privacy", "privacy")).toBe(0);
    expect(editDistance("privcy", "privacy")).toBe(1);
    expect(editDistance("privacyy", "privacy")).toBe(1);
    expect(editDistance("privaxy", "privacy")).toBe(1);
    expect(editDistance("pirvacy", "privacy")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });
});
