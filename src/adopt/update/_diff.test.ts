import { createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { editDiff } from "./_diff.ts";
import { Edits, SourceText } from "./_text.ts";

const lines = (count: number, eol = "\n", last = eol) => Array.from({ length: count }, (_, i) => `line ${i}`).join(eol) + last;

/** The diff of the edits window by window, beside the diff of the whole texts. */
function both(text: string, edit: (edits: Edits, source: SourceText) => void) {
  const source = new SourceText(text);
  const edits = new Edits(source);
  edit(edits, source);
  const whole = createTwoFilesPatch("f.yaml", "f.yaml", text, edits.apply(), undefined, undefined, { context: 3 });
  return { windows: editDiff("f.yaml", source, edits), whole };
}

describe("the diff of an update, window by window", () => {
  it("is the whole file's diff: edits far apart, close together, at the start and at the end", () => {
    const { windows, whole } = both(lines(80), (edits, source) => {
      edits.replace(source.start(0), source.start(0) + 4, "LINE");
      edits.deleteLines(20, 21);
      edits.insertLines(25, ["new a", "new b"]);
      edits.replace(source.start(30) + 5, source.start(30) + 6, "30!");
      edits.insertLines(source.lineCount, ["appended"]);
    });
    expect(windows).toBe(whole);
    expect(windows.match(/^@@/gm)).toHaveLength(3);
  });

  it("is the whole file's diff for CRLF and a last line without its newline", () => {
    const { windows, whole } = both(lines(12, "\r\n", ""), (edits, source) => {
      edits.replace(source.start(11), source.start(11) + 4, "last");
      edits.insertLines(source.lineCount, ["after"]);
      edits.deleteLines(2, 2);
    });
    expect(windows).toBe(whole);
  });
});
