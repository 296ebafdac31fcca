/**
 * The event stream as a consumer reads it (DESIGN §7): one JSON object per line, each held against
 * schemas/events.schema.json with ajv, and searched for every secret of the run.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "vitest";

const schema = JSON.parse(readFileSync(fileURLToPath(new URL("../../schemas/events.schema.json", import.meta.url)), "utf8"));
const validate = new Ajv2020({ allErrors: true }).compile(schema);

export interface StreamEvent {
  "@level": string;
  "@message": string;
  "@timestamp": string;
  type: string;
  account?: string;
  [field: string]: unknown;
}

/**
 * Every line of `text` as an event: each a JSON object valid against the schema, none holding any of `secrets`
 * (searched in the raw line, so an escaped or nested copy is found too), the first `version` with ui 1.0 and
 * the last `outcome`.
 */
export function eventsOf(text: string, secrets: readonly string[]): StreamEvent[] {
  const lines = text.split("\n").filter((line) => line !== "");
  expect(lines.length).toBeGreaterThan(2);
  const events = lines.map((line, i) => {
    for (const secret of secrets) expect(line, `line ${i + 1} holds a secret`).not.toContain(secret);
    const event = JSON.parse(line) as StreamEvent;
    expect(validate(event) ? [] : validate.errors, `line ${i + 1}: ${line}`).toEqual([]);
    return event;
  });
  expect(events[0]).toMatchObject({ type: "version", ui: "1.0" });
  expect(events.at(-1)?.type).toBe("outcome");
  // Written as the run went: never out of order.
  const times = events.map((e) => Date.parse(e["@timestamp"]));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  return events;
}

/** The change an event is about, as `action name`. */
export function changeOf(event: StreamEvent): string {
  const change = (event.change ?? (event.hook as { change?: unknown } | undefined)?.change) as { action: string; name: string };
  return `${change.action} ${change.name}`;
}
