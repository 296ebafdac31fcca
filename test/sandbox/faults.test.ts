import { afterEach, describe, expect, it } from "vitest";
import { type FaultOptions, type Sandbox, startSandbox } from "../../src/sandbox/index.ts";
import { call } from "./_helpers.ts";

/** A call that reports a hang-up as status 0 instead of throwing. */
async function attempt(sandbox: Sandbox, method: string, path: string, form?: Record<string, string>): Promise<number> {
  try {
    return (await call(sandbox, method, path, form ? { form } : {})).status;
  } catch {
    return 0;
  }
}

describe("sandbox fault injection", () => {
  let sandbox: Sandbox | undefined;
  afterEach(() => sandbox?.close());

  it("answers 500 without doing the work", async () => {
    sandbox = await startSandbox({ rateLimit: 0, faults: { errorRate: 1 } });
    const answer = await call(sandbox, "POST", "/api/v1/websites", { form: { domain: "a.example.com" } });
    expect(answer.status).toBe(500);
    expect(answer.text).toBe('{"message":"Server Error"}');
    expect(sandbox.store.websites()).toHaveLength(0);
    expect(sandbox.requests.at(-1)!.fault).toBe("error");
  });

  it("hangs up without an answer and without doing the work", async () => {
    sandbox = await startSandbox({ rateLimit: 0, faults: { resetRate: 1 } });
    expect(await attempt(sandbox, "POST", "/api/v1/websites", { domain: "a.example.com" })).toBe(0);
    expect(sandbox.store.websites()).toHaveLength(0);
    expect(sandbox.requests.at(-1)).toMatchObject({ status: 0, fault: "reset" });
  });

  it("commits a write and then hangs up on drop-after-commit, but never drops reads", async () => {
    sandbox = await startSandbox({ rateLimit: 0, faults: { dropAfterCommitRate: 1 } });
    expect(await attempt(sandbox, "POST", "/api/v1/websites", { domain: "a.example.com" })).toBe(0);
    expect(sandbox.store.findWebsite("a.example.com")).toBeDefined();
    expect(await attempt(sandbox, "GET", "/api/v1/websites")).toBe(200);
  });

  it("answers slowly but completely on a slow fault", async () => {
    sandbox = await startSandbox({ rateLimit: 0, faults: { slowRate: 1, slowMs: 50 } });
    expect(await attempt(sandbox, "GET", "/api/v1/websites")).toBe(200);
    expect(sandbox.requests.at(-1)!.fault).toBe("slow");
  });

  it("restricts faults to the listed methods", async () => {
    sandbox = await startSandbox({ rateLimit: 0, faults: { errorRate: 1, methods: ["delete"] } });
    expect(await attempt(sandbox, "GET", "/api/v1/websites")).toBe(200);
    expect(await attempt(sandbox, "DELETE", "/api/v1/websites/1")).toBe(500);
  });

  it("replays the same faults for the same seed and request sequence", async () => {
    const faults: FaultOptions = { seed: 42, errorRate: 0.3, resetRate: 0.1 };
    const run = async () => {
      const s = await startSandbox({ rateLimit: 0, faults });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++) statuses.push(await attempt(s, "GET", "/api/v1/websites"));
        return statuses;
      } finally {
        await s.close();
      }
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(0);
    expect(first).toContain(200);
  });

  it("can switch faults on and off at run time", async () => {
    sandbox = await startSandbox({ rateLimit: 0 });
    sandbox.setFaults({ errorRate: 1 });
    expect(await attempt(sandbox, "GET", "/api/v1/websites")).toBe(500);
    sandbox.setFaults(undefined);
    expect(await attempt(sandbox, "GET", "/api/v1/websites")).toBe(200);
  });
});

describe("sandbox latency", () => {
  it("delays answers without changing them", async () => {
    const sandbox = await startSandbox({ rateLimit: 0, latencyMs: 30, websites: [{ domain: "a.example.com" }] });
    try {
      const answer = await call(sandbox, "GET", "/api/v1/websites");
      expect(answer.body.meta.total).toBe(1);
      expect(sandbox.requests.at(-1)!.durationMs).toBeGreaterThanOrEqual(25);
    } finally {
      await sandbox.close();
    }
  });
});
