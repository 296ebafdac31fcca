/**
 * `search` is MySQL `LIKE '%value%'` with the value unescaped (API-NOTES §2.2, §5): `%` and `_` are wildcards,
 * `\` escapes the next character of the pattern the app builds, the closing `%` included, and the match
 * ignores case. The sandbox must answer as that server would, or a client that sends a wildcard passes here
 * and misses the name there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

const NAMES = [
  "my_shop.example.com",
  "myxshop.example.com",
  "50%off.example.com",
  "50xoff.example.com",
  "back\\slash.example.com",
  "backslash.example.com",
];

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimit: 0,
    websites: NAMES.map((domain) => ({ domain })),
    projects: NAMES.map((project) => ({ project })),
  });
});
afterAll(() => sandbox.close());

async function search(path: string, value: string): Promise<string[]> {
  const { status, body } = await call(sandbox, "GET", `${path}?per_page=100&search=${encodeURIComponent(value)}`);
  expect(status).toBe(200);
  return (body.data as Array<{ domain?: string; project?: string }>).map((item) => item.domain ?? item.project ?? "").sort();
}

describe.each(["/api/v1/websites", "/api/v1/projects"])("GET %s?search=", (path) => {
  it("reads % and _ as wildcards and a backslash as an escape", async () => {
    expect(await search(path, "MY_SHOP")).toEqual(["my_shop.example.com", "myxshop.example.com"]);
    expect(await search(path, "my\\_shop")).toEqual(["my_shop.example.com"]);
    expect(await search(path, "50%off")).toEqual(["50%off.example.com", "50xoff.example.com"]);
    expect(await search(path, "50\\%off")).toEqual(["50%off.example.com"]);
    // `\s` is an escaped `s`, `\\` a backslash.
    expect(await search(path, "back\\slash")).toEqual(["backslash.example.com"]);
    expect(await search(path, "back\\\\slash")).toEqual(["back\\slash.example.com"]);
  });

  it("lets a trailing backslash escape the closing %: the name must then end in a literal %", async () => {
    expect(await search(path, "back\\")).toEqual([]);
    expect(await search(path, "example.com\\")).toEqual([]);
    expect(await search(path, "example.co")).toHaveLength(NAMES.length);
  });
});
