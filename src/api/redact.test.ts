import { describe, expect, it } from "vitest";
import { createRedactor, redactUrl, scrub, WITHHELD } from "./redact.ts";

describe("createRedactor", () => {
  it("replaces only long secrets in text (and hands only those to onSecret), but knows every one", () => {
    const registered: string[] = [];
    const redactor = createRedactor({ mask: "(sensitive)", minLength: 4, onSecret: (value) => registered.push(value) });
    redactor.add(["key-123456", "pw1", undefined, ""]);
    expect(registered).toEqual(["key-123456"]);
    expect(redactor.redact("sent key-123456 with pw1")).toBe("sent (sensitive) with pw1");
    expect(redactor.secrets()).toEqual(["key-123456", "pw1"]);
  });

  it("withholds a server's text that repeats any secret, however short or encoded, and nothing else", () => {
    const redactor = createRedactor({ mask: "(sensitive)", minLength: 12 }, ["a&b/é", "shop"]);
    expect(redactor.withhold('The password "a&b/é" is too weak')).toBe(WITHHELD);
    expect(redactor.withhold("password=a%26b%2F%C3%A9")).toBe(WITHHELD);
    expect(redactor.withhold('{"password":"a&b\\/\\u00e9"}')).toBe(WITHHELD);
    expect(redactor.withhold("The password &quot;a&amp;b/é&quot;")).toBe(WITHHELD);
    expect(redactor.withhold("SHOP is taken")).toBe(WITHHELD);
    // A domain we sent is ours: the short password inside it is no echo, and the text is kept whole.
    expect(redactor.withhold("The domain shop.example.com has already been taken.", ["shop.example.com"])).toBe(
      "The domain shop.example.com has already been taken.",
    );
    // ...but not when the password also stands on its own, or starts before the domain does.
    expect(redactor.withhold("shop: shop.example.com", ["shop.example.com"])).toBe(WITHHELD);
    expect(redactor.withhold("xshop.example.com", ["p.example.com"])).toBe(WITHHELD);
    expect(redactor.withhold("The domain field is required.")).toBe("The domain field is required.");
  });
});

describe("the edges of redaction (DESIGN §12)", () => {
  it("replaces a secret exactly the minimum length", () => {
    const redactor = createRedactor({ mask: "(sensitive)", minLength: 4 }, ["abcd"]);
    expect(redactor.redact("pw abcd here")).toBe("pw (sensitive) here");
  });

  it("withholds a secret that starts inside one of our values but runs past it", () => {
    const redactor = createRedactor({ mask: "(sensitive)", minLength: 40 }, ["example.com-and-more"]);
    expect(redactor.withhold("saw shop.example.com-and-more", ["shop.example.com"])).toBe(WITHHELD);
    expect(redactor.withhold("saw shop.example.com", ["shop.example.com"])).toBe("saw shop.example.com");
  });

  it("redacts JSON before escaping it: a secret holding a quote or a backslash never survives", () => {
    const secret = 'pa"ss\\word-long-enough';
    const redactor = createRedactor({ mask: "(sensitive)", minLength: 8 }, [secret]);
    const text = redactor.json({ body: { message: `wrong password ${secret}` } });
    expect(text).toContain("wrong password (sensitive)");
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(text).not.toContain("word-long-enough");
  });
});

describe("the API client's scrubbing", () => {
  it("masks every key and an api_token in a URL", () => {
    expect(scrub("401 for key k1 and k2", ["k1", "k2"])).toBe("401 for key *** and ***");
    expect(redactUrl("https://a.example/api/v1/websites?page=2&api_token=abc#x")).toBe(
      "https://a.example/api/v1/websites?page=2&api_token=***#x",
    );
    expect(redactUrl("https://a.example/api/v1/websites?API_TOKEN=abc&page=2")).toBe(
      "https://a.example/api/v1/websites?API_TOKEN=***&page=2",
    );
  });
});
