import { expect, it } from "vitest";
import { createIo, inert } from "./_io.ts";

it("lets no control character through but newlines, tabs and (with color on) its own colors", () => {
  const forged = "ok\u001b[2K\u001b]0;title\u0007\r\tdone\n";
  expect(inert(forged, false)).toBe("ok\\e[2K\\e]0;title\\x07\\r\tdone\n");
  expect(inert("\u001b[31mred\u001b[39m \u001b[2K", true)).toBe("\u001b[31mred\u001b[39m \\e[2K");
});

it("gates every line it prints, after the redactor", () => {
  let out = "";
  const io = createIo(
    {},
    {
      out: (text) => {
        out += text;
      },
      err: () => undefined,
    },
  );
  io.redactor.add(["a-key-long-enough-to-replace"]);
  io.out("key a-key-long-enough-to-replace\u001b[1A");
  expect(out).toBe("key (sensitive)\\e[1A\n");
});
