/**
 * The bound on included files (DESIGN §12; docs/fleets.md: "at most 2,000 files"): a root including exactly 2,000
 * files loads, and the 2,001st is refused at the include's line, before any request, saying to split the
 * repository. Through `validate` (the same loader as plan and apply).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sitesync, workdir } from "../helpers/cli.ts";
import { writeFiles } from "../helpers/files.ts";

const BOUND = 2000;
const name = (i: number) => `c${String(i).padStart(4, "0")}`;

it("loads 2,000 included files and refuses the 2,001st at the include line", async () => {
  const dir = workdir();
  const clients: Record<string, string> = {};
  for (let i = 1; i <= BOUND; i++) clients[`clients/${name(i)}.yaml`] = `websites:\n  - domain: ${name(i)}.example.com\n`;
  writeFiles(dir, { "sitesync.yaml": 'version: 1\nwebsites: []\ninclude: ["clients/*.yaml"]\n', ...clients });
  const atBound = await sitesync(["validate"], { cwd: dir });
  expect(atBound.code, atBound.stderr).toBe(0);
  expect(atBound.stdout).toContain(`${BOUND} websites in ${BOUND + 1} files`);

  writeFileSync(join(dir, "clients", `${name(BOUND + 1)}.yaml`), `websites:\n  - domain: ${name(BOUND + 1)}.example.com\n`);
  const past = await sitesync(["validate"], { cwd: dir });
  expect(past.code).toBe(1);
  expect(past.stderr).toContain(`sitesync.yaml:3:11 include[0]: more than ${BOUND} files are included`);
});
