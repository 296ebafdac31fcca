import { describe, expect, it } from "vitest";
import { decodeText } from "./read-bounded.ts";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))));

describe("decodeText", () => {
  it("reads UTF-8 as it is: a byte order mark and a written U+FFFD are text", () => {
    expect(decodeText(bytes("\ufeffa: \ufffd é\n"))).toBe("\ufeffa: \ufffd é\n");
  });

  it("places the first byte that is not UTF-8, counting the characters before it on its line", () => {
    expect(decodeText(bytes("a: 1\nb: ", [0xe9], "\n"))).toMatchObject({ line: 2, column: 4, why: expect.stringContaining("byte 0xE9") });
    // Three characters of two and three bytes each count as three columns.
    expect(decodeText(bytes("é€x", [0xc3, 0x28]))).toMatchObject({ line: 1, column: 4, why: expect.stringContaining("byte 0xC3") });
    // A sequence cut short by the end of the file, and a UTF-16 surrogate written in UTF-8 (CESU-8).
    expect(decodeText(bytes("a: 1\n\nb: ", [0xe2, 0x82]))).toMatchObject({ line: 3, column: 4 });
    expect(decodeText(bytes("ab", [0xed, 0xa0, 0x80]))).toMatchObject({ line: 1, column: 3, why: expect.stringContaining("byte 0xED") });
  });

  it("names UTF-16 by its byte order mark, and a NUL as a binary file", () => {
    expect(decodeText(Buffer.from("\ufeffa: 1\n", "utf16le"))).toMatchObject({
      line: 1,
      column: 1,
      why: expect.stringContaining("UTF-16"),
    });
    expect(decodeText(Buffer.from("\ufeffa: 1\n", "utf16le").swap16())).toMatchObject({ why: expect.stringContaining("UTF-16") });
    expect(decodeText(bytes("a: 1\nb:", [0]))).toMatchObject({
      line: 2,
      column: 3,
      why: expect.stringContaining("NUL byte (a binary file?)"),
    });
  });
});
