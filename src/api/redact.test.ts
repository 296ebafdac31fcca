import { describe, expect, it } from "vitest";
import { createRedactor, redactUrl, scrub } from "./redact.ts";

describe("createRedactor", () => {
  it("hands every secret to onSecret, and searches output only for those long enough not to garble it", () => {
    const registered: string[] = [];
    const redactor = createRedactor({ mask: "(sensitive)", minLength: 4, onSecret: (value) => registered.push(value) });
    redactor.add(["key-123456", "pw1", undefined, ""]);
    expect(registered).toEqual(["key-123456", "pw1"]);
    expect(redactor.redact("sent key-123456 with pw1")).toBe("sent (sensitive) with pw1");
  });
});

describe("the API client's scrubbing", () => {
  it("masks every key and an api_token in a URL", () => {
    expect(scrub("401 for key k1 and k2", ["k1", "k2"])).toBe("401 for key *** and ***");
    expect(redactUrl("https://a.example/api/v1/websites?page=2&api_token=abc#x")).toBe("https://a.example/api/v1/websites?page=2&api_token=***#x");
  });
});
