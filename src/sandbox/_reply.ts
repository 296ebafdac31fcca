/** The answers the sandbox sends, with the exact bodies of API-NOTES §4. */
import { phpJson } from "./_php.ts";

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A JSON answer as Laravel's JsonResponse encodes it (escaped slashes, `\uXXXX`). */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: phpJson(value) };
}

function html(status: number, title: string, headers: Record<string, string> = {}): Reply {
  const body = `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body>${title}</body>\n</html>\n`;
  return { status, headers: { "Content-Type": "text/html; charset=UTF-8", ...headers }, body };
}

/** A framework error: JSON when the client expects JSON, else Laravel's HTML error page. */
function frameworkError(status: number, message: string, title: string, asJson: boolean): Reply {
  return asJson ? json(status, { message }) : html(status, title);
}

/** The app's own 404, always JSON (API-NOTES §4). */
export const notFound = (): Reply => json(404, { message: "Resource not found.", status: 404 });

export const validationFailed = (bag: Record<string, string[]>): Reply => json(422, { message: bag, status: 422 });

export const serverError = (asJson: boolean): Reply => frameworkError(500, "Server Error", "Server Error", asJson);

export const tooManyAttempts = (asJson: boolean): Reply => frameworkError(429, "Too Many Attempts.", "Too Many Requests", asJson);

export const unauthorized = (asJson: boolean): Reply => frameworkError(403, "This action is unauthorized.", "Forbidden", asJson);

/** `api.guard` without the plan's API feature: built by the app, always JSON. */
export const noApiFeature = (): Reply => json(403, { message: "You don't have access to this feature.", status: 403 });

/** A bad or missing key: 401 for a JSON client, else a redirect to the login page (API-NOTES §4). */
export function unauthenticated(asJson: boolean, baseUrl: string): Reply {
  if (asJson) return json(401, { message: "Unauthenticated." });
  const url = `${baseUrl}/login`;
  const body =
    `<!DOCTYPE html>\n<html>\n    <head>\n        <meta charset="UTF-8" />\n        <meta http-equiv="refresh" content="0;url='${url}'" />\n\n` +
    `        <title>Redirecting to ${url}</title>\n    </head>\n    <body>\n        Redirecting to <a href="${url}">${url}</a>.\n    </body>\n</html>`;
  return { status: 302, headers: { Location: url, "Content-Type": "text/html; charset=UTF-8" }, body };
}

/** The router's 405, raised before any middleware runs (so without rate-limit headers). */
export function methodNotAllowed(method: string, path: string, allowed: string[], asJson: boolean): Reply {
  const message = `The ${method} method is not supported for route ${path}. Supported methods: ${allowed.join(", ")}.`;
  const reply = frameworkError(405, message, "Method Not Allowed", asJson);
  return { ...reply, headers: { ...reply.headers, Allow: allowed.join(", ") } };
}

/** A path outside the API, which the real app serves from its web routes. */
export function routeNotFound(path: string, asJson: boolean): Reply {
  return frameworkError(404, `The route ${path} could not be found.`, "Not Found", asJson);
}

export const tooLarge = (asJson: boolean): Reply => frameworkError(413, "Content Too Large", "Content Too Large", asJson);

/** The login page the 302 points at, so that a browser following it sees something sensible. */
export const loginPage = (): Reply => html(200, "sitesync sandbox: there is no login here, send the API key instead");
