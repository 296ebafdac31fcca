/**
 * The one check of an API base address, shared by the config rule (`websites_url`) and the client (flags,
 * environment): so the two can never disagree on what may carry the key (DESIGN §2).
 */

import type { BaseUrlProblem } from "../errors.ts";

export type { BaseUrlProblem };

export type BaseUrlCheck = { ok: true; base: string } | { ok: false; problem: BaseUrlProblem };

/**
 * Checks a base address and normalizes it: the origin plus any install path, without a trailing `/` or
 * `/api/v1` (users paste either form from the docs page). Plain `http://` only to a loopback host, so the
 * key never crosses a network in clear text. Problems never hold the credentials or query of the input.
 */
export function checkBaseUrl(input: string): BaseUrlCheck {
  const url = URL.parse(input.trim());
  if (!url) return fail({ code: "not-url" });
  if (url.protocol !== "https:" && url.protocol !== "http:") return fail({ code: "scheme", protocol: url.protocol });
  if (url.hostname === "") return fail({ code: "not-url" });
  if (url.username !== "" || url.password !== "") return fail({ code: "credentials" });
  if (url.search !== "" || url.hash !== "") return fail({ code: "query" });
  if (url.protocol === "http:" && !isLoopback(url.hostname)) return fail({ code: "plain-http", hostname: url.hostname });
  const path = url.pathname
    .replace(/\/+$/, "")
    .replace(/\/api\/v1$/, "")
    .replace(/\/+$/, "");
  return { ok: true, base: `${url.origin}${path}` };
}

function fail(problem: BaseUrlProblem): BaseUrlCheck {
  return { ok: false, problem };
}

/** Hosts where plain http never leaves the machine. The URL parser has already normalized IPv4 forms. */
function isLoopback(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  return /^127(\.\d{1,3}){3}$/.test(hostname);
}
