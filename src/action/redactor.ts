/**
 * Every secret of the run, registered with the runner's log masking (`::add-mask::`) and kept here too:
 * the runner masks the log, but not what the Action writes itself (job summary, comment, files).
 */
import * as core from "@actions/core";
import { SENSITIVE } from "../plan/types.ts";

/** Secrets shorter than this are masked in the log but not searched for in Markdown: "1" would garble it. */
const MIN_LENGTH = 4;

export interface Redactor {
  /** Registers values as secrets: masked in the log from now on, removed from whatever `redact` sees. */
  add(values: Iterable<string | undefined>): void;
  redact(text: string): string;
}

export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  return {
    add(values) {
      for (const value of values) {
        if (!value) continue;
        core.setSecret(value);
        if (value.length >= MIN_LENGTH) secrets.add(value);
      }
    },
    redact(text) {
      let result = text;
      for (const secret of secrets) result = result.replaceAll(secret, SENSITIVE);
      return result;
    },
  };
}
