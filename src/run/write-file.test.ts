import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { writeNewOutput, writeOutput } from "./write-file.ts";

const dir = () => mkdtempSync(join(tmpdir(), "sitesync-write-"));

it("never replaces a file that appeared since the caller looked: a create-only write says false", () => {
  const path = join(dir(), "sitesync.yaml");
  writeFileSync(path, "someone else's file\n");
  expect(writeNewOutput(path, "version: 1\n")).toBe(false);
  expect(readFileSync(path, "utf8")).toBe("someone else's file\n");
});

it("creates the file when it does not exist", () => {
  const path = join(dir(), "sitesync.yaml");
  expect(writeNewOutput(path, "version: 1\n")).toBe(true);
  expect(readFileSync(path, "utf8")).toBe("version: 1\n");
});

it("keeps a replaced file's permissions (a results file readable by its owner only stays so)", () => {
  const path = join(dir(), "results.json");
  writeFileSync(path, "{}\n");
  chmodSync(path, 0o600);
  writeOutput(path, '{"items":[]}\n');
  expect(readFileSync(path, "utf8")).toBe('{"items":[]}\n');
  expect(statSync(path).mode & 0o777).toBe(0o600);
});
