import { expect, it } from "vitest";
import { printable } from "./printable.ts";

it("writes every control character as a visible escape, so that no text can start a line or move the cursor", () => {
  const forged = "evil.example.com\u001b[2K\r\nno changes to important.example.com\u0007\u009b\u202e";
  expect(printable(forged)).toBe("evil.example.com\\e[2K\\r\\nno changes to important.example.com\\x07\\x9b\\u202e");
  expect(printable("plain ünïcode.example.com")).toBe("plain ünïcode.example.com");
});

it("writes the characters that show as nothing as escapes, so that two names that look alike do not read alike", () => {
  expect(printable('unknown key "email\u200b"; did you mean "email"?')).toBe('unknown key "email\\u200b"; did you mean "email"?');
  expect(printable("\ufeffversion a\u00adb \u200e\u2060")).toBe("\\ufeffversion a\\xadb \\u200e\\u2060");
  expect(printable("no\u00a0break stays")).toBe("no\u00a0break stays");
  expect(printable("email\u{e0041}\u3164\ufe0f\uffff")).toBe("email\\u{e0041}\\u3164\\ufe0f\\uffff");
  expect(printable("emoji 😀 and ünïcode")).toBe("emoji 😀 and ünïcode");
});
