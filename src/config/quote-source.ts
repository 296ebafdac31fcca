/**
 * Diagnostics quote what the file says, never what an environment variable put there (DESIGN §12): a live value
 * `${SITESYNC_API_KEY}`, exported and planned again, printed the key in `exclude_ips[0]: "<the key>" is not an
 * IP address`. Anyone who can edit the account could read any variable of a CI job that way.
 */

import type { Diagnostic } from "../errors.ts";
import { repeatsSecret } from "../model/repeats-secret.ts";
import type { DocumentInterpolation } from "./interpolate-document.ts";

/**
 * Values shorter than this are not searched for in a message after quoting: `true` read from `${FAV}` is
 * also a word of "must be true or false", and withholding that message would hide it for nothing.
 */
const MIN_SEARCHED_LENGTH = 8;

/**
 * Each diagnostic with a quoted interpolated value (`"<value>"`) quoting its source (`"${EXCLUDE}"`) instead;
 * a message that would still repeat a value read from the environment is replaced whole, as the server's
 * messages are: editing it further would show where the value was.
 */
export function quoteSource(diagnostics: Diagnostic[], interpolation: DocumentInterpolation): Diagnostic[] {
  const envValues = interpolation.interpolated.flatMap((i) => i.envValues).filter((v) => v.length >= MIN_SEARCHED_LENGTH);
  if (interpolation.interpolated.length === 0) return diagnostics;
  const quoted = interpolation.interpolated.filter((i) => i.envValues.length > 0);
  // A value without a quote or a space is looked up by the word a message quotes: 20,000 diagnostics of a
  // file with 100,000 values each searched for every value took minutes. Longest first, the others.
  const words = new Map(quoted.filter((i) => !/[\s"]/.test(i.value)).map((i) => [i.value, i.source]));
  const others = quoted.filter((i) => /[\s"]/.test(i.value)).sort((a, b) => b.value.length - a.value.length);
  const ours = [...interpolation.literals, ...quoted.map((i) => i.source)];
  return diagnostics.map((d) => {
    // `"<value>"`, and the end of a quoted example like `"- domain: <value>"`. The others first: one of them
    // may end in a word of the map, which quoted first would leave the rest of it in the message.
    let message = d.message;
    for (const { source, value } of others) {
      message = message.replaceAll(`"${value}"`, () => `"${source}"`).replaceAll(` ${value}"`, () => ` ${source}"`);
    }
    if (words.size > 0) message = message.replace(/(?<=[" ])[^"\s]+(?=")/g, (word) => words.get(word) ?? word);
    if (envValues.length > 0 && repeatsSecret(message, envValues, ours)) message = withheldMessage(d, interpolation);
    return message === d.message ? d : { ...d, message };
  });
}

function withheldMessage(d: Diagnostic, interpolation: DocumentInterpolation): string {
  const here = interpolation.interpolated.find((i) => i.path === d.path && i.envValues.length > 0);
  const from = here ? ` (read from "${here.source}")` : "";
  return `invalid value${from} [${d.code}]: the full message is withheld, since it would quote a value read from the environment`;
}
