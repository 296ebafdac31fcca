/**
 * Saved plans as a library user reads them (src/index.ts's exports): a plan that any single safety rail
 * refused when it was made is never applicable, however it reached the disk (DESIGN §3).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { plan, readSavedPlan, SafetyError } from "../../src/index.ts";
import { liveWebsite } from "../helpers/live-website.ts";

it("refuses a saved plan that one rail refused, with that rail's code", () => {
  const refused = plan(
    { websites: [{ domain: "keep.example.com", state: "present" }], policy: { prune: true, maxDeletes: 0, protect: [], ignore: [] } },
    { websites: [liveWebsite(1, "keep.example.com"), liveWebsite(2, "gone.example.com")] },
    { configFile: "sitesync.yaml", configDigest: "d" },
  );
  expect(refused.refusals.map((r) => r.code)).toEqual(["max-deletes"]);
  const file = join(mkdtempSync(join(tmpdir(), "sitesync-saved-")), "plan.json");
  writeFileSync(file, JSON.stringify(refused));
  let error: unknown;
  try {
    readSavedPlan(file);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SafetyError);
  expect(error).toMatchObject({ code: "max-deletes" });
  expect((error as Error).message).toContain("was refused when it was made");
});
