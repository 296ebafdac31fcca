import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AccountBusyError } from "../errors.ts";
import { holdAccountLock } from "./account-lock.ts";

const holder = { pid: 4242, started: "2026-01-02T03:04:05.000Z" };
const account = (address: string) => ({ address, apiKey: "k".repeat(64) });

describe.each(["linux", "darwin"] as const)("holdAccountLock (%s)", (platform) => {
  it("refuses a second holder of the account, naming the first, until it is released", async () => {
    const address = `https://stats-${platform}-${process.pid}.example.com`;
    const where = { platform, dir: mkdtempSync(join(tmpdir(), "sitesync-lock-")) };
    const lock = await holdAccountLock(account(address), holder, where);
    const busy = await holdAccountLock(account(address), { pid: 1, started: holder.started }, where).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(AccountBusyError);
    expect(busy).toMatchObject({ address, holder });
    // Another key or address is another account.
    const other = await holdAccountLock({ ...account(address), apiKey: "o".repeat(64) }, holder, where);
    await other.release();
    await lock.release();
    const again = await holdAccountLock(account(address), holder, where);
    await again.release();
  });
});

it("takes over a socket file that a crashed run left and nobody answers, and never puts the key in its name", async () => {
  const where = { platform: "darwin" as const, dir: mkdtempSync(join(tmpdir(), "sitesync-lock-")) };
  const lock = await holdAccountLock(account("https://stats.example.com"), holder, where);
  const files = readdirSync(where.dir);
  expect(files).toEqual([expect.stringMatching(/^sitesync-apply-[0-9a-f]{24}\.sock$/)]);
  // A crashed holder: its listener is gone, a file stays where the socket was.
  await lock.release();
  writeFileSync(join(where.dir, files[0]!), "");
  const taken = await holdAccountLock(account("https://stats.example.com"), holder, where);
  await taken.release();
});
