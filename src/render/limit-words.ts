/**
 * An exchange that crossed a bound of the run's own settings (DESIGN §12), in words that name the setting as
 * the surface spells it: `--max-wait` and `--timeout` on the CLI, the `max-wait` and `timeout` inputs in the
 * Action. Pure.
 */
import { AMBIGUOUS_POST_NOTE, type ApiError, type ApiLimit } from "../errors.ts";
import { printable } from "../model/printable.ts";
import type { Surface } from "./refusal-words.ts";

/** The whole line of an ApiError that crossed a setting's bound: `[GET] url: 429 the server asked to wait…`. */
export function limitErrorMessage(
  error: Pick<ApiError, "method" | "url" | "status" | "kind" | "ambiguous">,
  limit: ApiLimit,
  surface: Surface,
): string {
  const status = error.status === undefined ? `${error.kind === "timeout" ? "timed out" : error.kind}:` : String(error.status);
  return `[${error.method}] ${error.url}: ${status} ${limitWords(limit, surface)}${error.ambiguous ? AMBIGUOUS_POST_NOTE : ""}`;
}

function limitWords(limit: ApiLimit, surface: Surface): string {
  const setting = (name: string) => (surface === "cli" ? `--${name}` : `the ${name} input`);
  switch (limit.code) {
    case "timeout":
      return `no answer within ${limit.timeoutMs} ms (raise ${setting("timeout")} if the server is this slow)`;
    case "wait-asked":
      return (
        `the server asked to wait ${formatWait(limit.waitMs)} (${printable(limit.header)}), longer than ${setting("max-wait")} ` +
        `${formatWait(limit.maxWaitMs)}: the run stops here; run it again later, or raise ${setting("max-wait")}`
      );
    case "wait-learned":
      return (
        `not sent: the server's rate limit (${limit.limit} requests per ${formatWait(limit.windowMs)}, learned) needs a wait of ` +
        `${formatWait(limit.waitMs)}, longer than ${setting("max-wait")} ${formatWait(limit.maxWaitMs)}: the run stops here; raise ${setting("max-wait")}`
      );
  }
}

/** `45s`, `5m`, `2h 30m`: whole seconds, the unit a person reads a wait in. */
function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
}
