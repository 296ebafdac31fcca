/**
 * One request through the imitated stack, in Laravel's order: global middleware (TrimStrings,
 * ConvertEmptyStringsToNull), routing (405s), then the `api` group: throttle, auth, api.guard, the
 * controller (API-NOTES §1, §4). Injected faults sit between the throttle and auth.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { FaultInjector } from "./_faults.ts";
import { expectsJson, type InputBag, parseInput } from "./_input.ts";
import { phpTruthy, rawUrlDecode } from "./_php.ts";
import { methodNotAllowed, noApiFeature, type Reply, routeNotFound, serverError, tooManyAttempts, unauthenticated } from "./_reply.ts";
import type { RouteContext, RouteSettings } from "./_route-context.ts";
import { matchRoute, type Route, type RouteGroup } from "./_router.ts";
import type { Throttle } from "./_throttle.ts";
import type { SandboxStore } from "./store.ts";
import type { FaultKind } from "./types.ts";

export interface PipelineState {
  store: SandboxStore;
  settings: RouteSettings;
  throttle: Throttle | undefined;
  faults: FaultInjector;
  apiKey: string;
  projectsApiKey: string;
  apiFeature: boolean;
}

export interface Incoming {
  /** The method on the wire. */
  method: string;
  rawPath: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  baseUrl: string;
  now: Date;
}

export interface Decision {
  /** The effective method, after `_method` spoofing. */
  method: string;
  /** Undefined: destroy the socket without answering. */
  reply: Reply | undefined;
  fault?: FaultKind;
  slowMs?: number;
  /** Do not answer: destroy the socket (the work is done). */
  drop?: boolean;
}

/** Decides the answer to one request. Changes nothing but the store, the throttle and the fault PRNG. */
export function processRequest(state: PipelineState, incoming: Incoming): Decision {
  const { headers } = incoming;
  const input = parseInput(incoming.method, headers["content-type"] ?? "", incoming.rawQuery, incoming.body);
  const method = effectiveMethod(incoming.method, headers, input.all);
  const asJson = expectsJson(headers.accept, header(headers["x-requested-with"]));
  const path = incoming.rawPath.replace(/^\/+|\/+$/g, "");
  // Routing happens before any route middleware: a 405 has no rate-limit headers and needs no key.
  const match = matchRoute(method, rawUrlDecode(path));
  if (match.kind === "none") return { method, reply: routeNotFound(path || "/", asJson) };
  if (match.kind === "method") {
    if (method === "OPTIONS") return { method, reply: { status: 200, headers: { Allow: match.allowed.join(",") }, body: "" } };
    return { method, reply: methodNotAllowed(method, path, match.allowed, asJson) };
  }
  const context: RouteContext = {
    params: match.params.map((p) => p ?? ""),
    input: input.all,
    baseUrl: incoming.baseUrl,
    expectsJson: asJson,
    store: state.store,
    settings: state.settings,
    now: incoming.now,
  };
  if (match.route.group === "web") return { method, reply: match.route.handler(context).reply };
  const token = tokenOf(input.query, input.all, header(headers.authorization));
  return { method, ...apiGroup(state, match.route, context, token, method) };
}

/** The `api` middleware group and the route's own: throttle, (faults), auth:api, api.guard, controller. */
function apiGroup(
  state: PipelineState,
  route: Route,
  context: RouteContext,
  token: string | undefined,
  method: string,
): Omit<Decision, "method"> {
  const { expectsJson: asJson, now } = context;
  // API-NOTES §1: the throttle runs first, and its headers go on every answer after it, errors included.
  const limit = state.throttle?.hit(now.getTime());
  const withLimit = (reply: Reply): Reply => ({ ...reply, headers: { ...reply.headers, ...limit?.headers } });
  if (limit && !limit.allowed) return { reply: withLimit(tooManyAttempts(asJson)) };

  const plan = state.faults.plan(method);
  if (plan.pre === "reset") return { reply: undefined, fault: "reset" };
  if (plan.pre === "error") return { reply: withLimit(serverError(asJson)), fault: "error" };

  if (!authenticated(state, route.group, token)) return { reply: withLimit(unauthenticated(asJson, context.baseUrl)) };
  if (route.group === "websites" && !state.apiFeature) return { reply: withLimit(noApiFeature()) };

  const result = route.handler(context);
  const fault: FaultKind | undefined = plan.drop ? "drop" : plan.slowMs ? "slow" : undefined;
  return { reply: withLimit(result.reply), ...(fault && { fault }), slowMs: plan.slowMs, drop: plan.drop };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const OVERRIDABLE = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "PATCH", "PURGE", "TRACE"]);

/** Symfony's method override, on POST only: `X-HTTP-Method-Override`, else a `_method` field. */
function effectiveMethod(method: string, headers: IncomingHttpHeaders, input: InputBag): string {
  if (method !== "POST") return method;
  const override = header(headers["x-http-method-override"]) ?? input._method;
  if (typeof override !== "string") return method;
  const upper = override.toUpperCase();
  return OVERRIDABLE.has(upper) ? upper : method;
}

/**
 * TokenGuard (API-NOTES §1): `?api_token=`, then an `api_token` input field, then `Bearer`, then the
 * Basic-auth password. PHP's `empty()` skips "" and "0".
 */
function tokenOf(query: InputBag, input: InputBag, authorization: string | undefined): string | undefined {
  const token = [query.api_token, input.api_token, bearer(authorization), basicPassword(authorization)].find(phpTruthy);
  return typeof token === "string" ? token : undefined;
}

/** Each API has its own key; an unknown path under /api/v1 accepts either. */
function authenticated(state: PipelineState, group: RouteGroup, token: string | undefined): boolean {
  if (token === undefined) return false;
  if (group === "websites") return sameKey(token, state.apiKey);
  if (group === "projects") return sameKey(token, state.projectsApiKey);
  return sameKey(token, state.apiKey) || sameKey(token, state.projectsApiKey);
}

/** Request::bearerToken: the text after the last "Bearer ", up to a comma. */
function bearer(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const position = authorization.toLowerCase().lastIndexOf("bearer ");
  if (position < 0) return undefined;
  return authorization.slice(position + 7).split(",")[0];
}

function basicPassword(authorization: string | undefined): string | undefined {
  if (!authorization || !/^basic /i.test(authorization)) return undefined;
  const decoded = Buffer.from(authorization.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
