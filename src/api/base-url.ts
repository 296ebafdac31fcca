import { UsageError } from "../errors.ts";

/** Hosts where plain http never leaves the machine, so a key sent in clear text cannot be read on a network. */
function isLoopback(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  return /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The API base as given by `--websites-url`/`--projects-url`, checked and normalized: the origin plus any
 * install path, without a trailing `/` or `/api/v1` (users paste either form from the docs page).
 * Plain `http://` is refused except on loopback: a key never crosses a network in clear text (DESIGN §2).
 */
export function resolveBaseUrl(input: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new UsageError(`${flag}: "${input}" is not a URL (expected e.g. https://analytics.example.com)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(`${flag}: only https:// URLs are supported, got ${url.protocol}//`);
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    throw new UsageError(
      `${flag}: refusing plain http:// to ${url.hostname}: the API key would cross the network in clear text; use https://`,
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UsageError(`${flag}: give the base address only, without credentials, query or fragment`);
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "").replace(/\/+$/, "");
  return `${url.origin}${path}`;
}
