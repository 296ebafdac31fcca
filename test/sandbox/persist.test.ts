import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

describe("sandbox persistence", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "sitesync-sandbox-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("saves after every write and loads the file instead of seeding on the next start", async () => {
    const file = join(dir, "state.json");
    const first = await startSandbox({ rateLimit: 0, seed: 3, persist: file });
    await call(first, "POST", "/api/v1/websites", { form: { domain: "kept.example.com", privacy: "2", password: "hunter22" } });
    await call(first, "DELETE", "/api/v1/websites/1");
    await first.close();

    const saved = readFileSync(file, "utf8");
    expect(saved).toContain("kept.example.com");
    expect(saved).not.toContain("hunter22");

    const second = await startSandbox({ rateLimit: 0, seed: 50, persist: file });
    try {
      const { body } = await call(second, "GET", "/api/v1/websites?per_page=100");
      expect(body.data.map((w: { domain: string }) => w.domain)).toEqual([
        "kept.example.com",
        "site-00003.example.com",
        "site-00002.example.com",
      ]);
      expect(body.data[0]).toMatchObject({ privacy: 2, password: true });
      // Ids keep counting from where the first run stopped.
      const created = await call(second, "POST", "/api/v1/websites", { form: { domain: "next.example.com" } });
      expect(created.body.data.id).toBe(5);
    } finally {
      await second.close();
    }
  });
});
