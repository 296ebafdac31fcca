import { expect, it } from "vitest";
import type { ItemResult } from "../apply/types.ts";
import type { Change } from "../plan/types.ts";
import type { Io } from "./_io.ts";
import { progressReporter } from "./_progress.ts";

const change = (domain: string): Change => ({ kind: "website", action: "delete", domain, id: 1, reason: "prune", fingerprint: "0" });

it("after a stop signal, counts only the changes done: neither a line nor the bar for those not started", () => {
  const lines: string[] = [];
  const statuses: (string | undefined)[] = [];
  const io = { err: (text: string) => lines.push(text), status: (text: string | undefined) => statuses.push(text) } as unknown as Io;
  const progress = progressReporter(io, false, true);
  const applied: ItemResult = { change: change("a.example.com"), status: "applied", reason: "applied" };
  const notStarted: ItemResult = { change: change("b.example.com"), status: "skipped", reason: "not-started" };
  progress.onItem?.(applied, 1, 3);
  progress.onItem?.(notStarted, 2, 3);
  progress.onItem?.({ ...notStarted, change: change("c.example.com") }, 3, 3);
  expect(lines).toEqual(["applied delete a.example.com (id 1)"]);
  expect(statuses.at(-1)).toContain(" 1/3");
});
