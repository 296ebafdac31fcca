/** The learned rate window as the CLI says it (DESIGN §6), and `--rate-window` as the one way to say it instead. */
import { describe, expect, it } from "vitest";
import { cliSettings } from "../../src/cli/_args.ts";
import { createIo } from "../../src/cli/_io.ts";
import { cliHooks } from "../../src/cli/_run.ts";
import { toRunSettings } from "../../src/run/to-run-settings.ts";

function stderrOf(flags: { quiet?: boolean }) {
  const err: string[] = [];
  const hooks = cliHooks(createIo({}, { out: () => {}, err: (text) => void err.push(text) }), flags);
  hooks.onRateLearned?.({ origin: "https://api.example.com", limit: 60, windowMs: 60_000 }, "");
  hooks.onRateLearned?.({ origin: "http://127.0.0.1:4000", limit: 30, windowMs: 4_500 }, "");
  return err.join("");
}

describe("the learned rate window on the command line", () => {
  it("is one line on stderr per server, naming the server, the limit and the window", () => {
    expect(stderrOf({})).toBe(
      "learned the rate limit of https://api.example.com: 60 requests per 60s\n" +
        "learned the rate limit of http://127.0.0.1:4000: 30 requests per 4.5s\n",
    );
  });

  it("is not said with --quiet", () => {
    expect(stderrOf({ quiet: true })).toBe("");
  });

  it("is learned unless --rate-window says it", () => {
    const rateWindowMs = (flags: Record<string, string>) => toRunSettings(cliSettings("plan", flags), "plan").rateWindowMs;
    expect(rateWindowMs({})).toBeUndefined();
    expect(rateWindowMs({ "rate-window": "90s" })).toBe(90_000);
  });
});
