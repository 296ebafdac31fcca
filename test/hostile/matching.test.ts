/**
 * Globs and the domain rule run in linear time (DESIGN §12). Each adversarial case would hang the test run
 * with the backtracking regexes they replace; the assertions check the answers, never a time.
 */
import { describe, expect, it } from "vitest";
import { matchGlob } from "../../src/model/glob.ts";
import { isApiDomain, normalizeDomain } from "../../src/model/website.ts";

/** The rule exactly as API-NOTES §2.4 quotes it: the reference meaning, safe only on short inputs. */
const REFERENCE =
  /^(?!:\/\/)(?=.{1,255}$)((.{1,63}\.){1,127}(?![0-9]*$)[a-z0-9-]+\.?)$|^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)(\.|$)){4}$/i;

/** A seeded generator, so a failure names an input that can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function sample(next: () => number, alphabet: string, maxLength: number): string {
  const length = Math.floor(next() * (maxLength + 1));
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
}

describe("the domain rule", () => {
  it("accepts and refuses exactly what the API's regex does", async () => {
    const next = random(12);
    // Long samples have few dots: the reference regex itself backtracks on long dotted ones.
    const alphabets = ["a.1-", "a.1-:/ \nZ_", "12.5", "0123456789.", "ab.", "25.0", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.1"];
    const cases = [
      "example.com",
      "stats.example.com",
      "localhost",
      "example.123",
      "example.123.",
      "1.2.3.4",
      "1.2.3.4.",
      "256.1.1.1",
      "099.1.1.1",
      "://a.com",
      ".com",
      "..com",
      "a..com",
      "example.com:8443",
      "example.com/shop",
      "EXAMPLE.COM",
      "a.b-",
      "a.-",
      "a.b_c",
      "a.b\n",
      "a\u2028.com",
      "1.2.3",
      "1.2.3.4.5",
      "",
      `${"a".repeat(63)}.com`,
      `${"a".repeat(64)}.com`,
      `${"a".repeat(62)}.${"b".repeat(62)}.com`,
      `${"a.".repeat(126)}com`,
      `${"a".repeat(250)}.com`,
      `${"a".repeat(251)}.com`,
      `a.${"b".repeat(61)}..c`,
      `${"a".repeat(62)}..c`,
      `${"a".repeat(63)}..c`,
      `${"a".repeat(10)}.${"b".repeat(52)}..c`,
    ];
    for (let i = 0; i < 4000; i++) cases.push(sample(next, alphabets[i % alphabets.length]!, 16));
    for (let i = 0; i < 300; i++) cases.push(sample(next, alphabets.at(-1)!, 300));
    const disagreements = cases.filter((domain) => isApiDomain(domain) !== REFERENCE.test(domain));
    expect(disagreements).toEqual([]);
  });

  it("decides crafted 10,000-character names at once", async () => {
    expect(isApiDomain(`${"a.".repeat(5000)}`)).toBe(false);
    expect(isApiDomain(`${"a".repeat(9999)}!`)).toBe(false);
    expect(isApiDomain(`${"a.".repeat(120)}${"1".repeat(9760)}`)).toBe(false);
    expect(isApiDomain(`${".".repeat(200)}a`)).toBe(true);
  });

  it("normalizes a name ending in a long run of dots and slashes", async () => {
    expect(normalizeDomain(`example.com${"./".repeat(50_000)}`)).toBe("example.com");
    expect(normalizeDomain(`${".".repeat(100_000)}x`)).toBe(`${".".repeat(100_000)}x`);
  });
});

describe("globs", () => {
  it("match a 72-character domain against a many-star protect glob", async () => {
    const domain = `${"a".repeat(71)}b`;
    expect(matchGlob("*a*a*a*a*a*a*a*a*a*a*a*a*c", domain)).toBe(false);
    expect(matchGlob("*a*a*a*a*a*a*a*a*a*a*a*a*b", domain)).toBe(true);
  });

  it("match 10,000-character names and patterns", async () => {
    const name = "a".repeat(10_000);
    expect(matchGlob(`${"*a".repeat(5000)}*b`, name)).toBe(false);
    expect(matchGlob(`${"*a".repeat(5000)}*`, name)).toBe(true);
    expect(matchGlob(`*${"?".repeat(9999)}`, name)).toBe(true);
    expect(matchGlob(`*${"?".repeat(10_001)}`, name)).toBe(false);
  });

  it("keep the meaning of *, ? and literal characters", async () => {
    expect(matchGlob("*", "")).toBe(true);
    expect(matchGlob("?", "")).toBe(false);
    expect(matchGlob("a*b*c", "aXbYc")).toBe(true);
    expect(matchGlob("a*b*c", "aXbYcZ")).toBe(false);
    expect(matchGlob("*.Example.com ", "a.b.EXAMPLE.com")).toBe(true);
    expect(matchGlob("*", "line\nbreak")).toBe(true);
  });
});

describe("config validation patterns", () => {
  it("refuse a 100,000-character value with a line break at once", async () => {
    const { loadConfig } = await import("../../src/config/load.ts");
    const source = `websites:\n  - domain: example.com\n    exclude_ips: ["${"1".repeat(100_000)}\\n"]\n`;
    const result = await loadConfig("sitesync.yaml", { source, env: {} });
    expect(result.ok).toBe(false);
  });
});
