/**
 * The route table of both apps merged, matched the way Laravel's RouteCollection does: the first route
 * for the method, the fallback last, and a 405 listing the other verbs whose routes match the path.
 */

import * as projects from "./_projects.ts";
import { loginPage, notFound } from "./_reply.ts";
import type { Handler } from "./_route-context.ts";
import * as websites from "./_websites.ts";

/** Which key a route accepts and which middleware it has. `web` routes have neither throttle nor auth. */
export type RouteGroup = "websites" | "projects" | "fallback" | "web";

export interface Route {
  methods: readonly string[];
  /** Matched against the decoded path without its leading and trailing slashes. */
  pattern: RegExp;
  group: RouteGroup;
  handler: Handler;
}

const READ = ["GET", "HEAD"] as const;

const ROUTES: readonly Route[] = [
  { methods: READ, pattern: /^api\/v1\/websites$/, group: "websites", handler: websites.index },
  { methods: ["POST"], pattern: /^api\/v1\/websites$/, group: "websites", handler: websites.store },
  { methods: READ, pattern: /^api\/v1\/websites\/([^/]+)$/, group: "websites", handler: websites.show },
  { methods: ["PUT", "PATCH"], pattern: /^api\/v1\/websites\/([^/]+)$/, group: "websites", handler: websites.update },
  { methods: ["DELETE"], pattern: /^api\/v1\/websites\/([^/]+)$/, group: "websites", handler: websites.destroy },
  { methods: READ, pattern: /^api\/v1\/projects$/, group: "projects", handler: projects.index },
  { methods: ["DELETE"], pattern: /^api\/v1\/projects\/([^/]+)$/, group: "projects", handler: projects.destroy },
  { methods: READ, pattern: /^login$/, group: "web", handler: () => ({ reply: loginPage() }) },
  // Route::fallback inside the auth group: GET and HEAD only, so other verbs on unknown paths get a 405.
  { methods: READ, pattern: /^api\/v1\/.+$/s, group: "fallback", handler: () => ({ reply: notFound() }) },
];

/** Router::$verbs, the order of "Supported methods" in a 405. */
const VERBS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export type RouteMatch = { kind: "route"; route: Route; params: string[] } | { kind: "method"; allowed: string[] } | { kind: "none" };

export function matchRoute(method: string, path: string): RouteMatch {
  for (const route of ROUTES) {
    if (!route.methods.includes(method)) continue;
    const match = route.pattern.exec(path);
    if (match) return { kind: "route", route, params: match.slice(1) };
  }
  const allowed = VERBS.filter(
    (verb) => verb !== method && ROUTES.some((route) => route.methods.includes(verb) && route.pattern.test(path)),
  );
  return allowed.length > 0 ? { kind: "method", allowed } : { kind: "none" };
}
