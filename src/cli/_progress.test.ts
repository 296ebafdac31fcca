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

it("after a stop signal, a change in flight that finishes after those not started moves the bar by one, not to the end", () => {
  const statuses: (string | undefined)[] = [];
  const io = { err: () => undefined, status: (text: string | undefined) => statuses.push(text) } as unknown as Io;
  const progress = progressReporter(io, false, true);
  const applied = (domain: string): ItemResult => ({ change: change(domain), status: "applied", reason: "applied" });
  const notStarted = (domain: string): ItemResult => ({ change: change(domain), status: "skipped", reason: "not-started" });
  progress.onItem?.(applied("a.example.com"), 1, 4);
  progress.onItem?.(notStarted("b.example.com"), 2, 4);
  progress.onItem?.(notStarted("c.example.com"), 3, 4);
  progress.onItem?.(applied("d.example.com"), 4, 4);
  expect(statuses.at(-1)).toContain(" 2/4");
});
