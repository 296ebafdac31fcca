/** Plain-fetch helpers for the sandbox tests: every test talks to a real server over HTTP. */
import type { Sandbox } from "../../src/sandbox/index.ts";

export interface CallOptions {
  /** Form-urlencoded body (the documented encoding). */
  form?: Record<string, string>;
  /** JSON body. */
  json?: unknown;
  headers?: Record<string, string>;
  /** Send `Accept: application/json` and the key as Bearer (default true for both). */
  accept?: boolean;
  auth?: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or undefined. `any` on purpose: each test asserts the exact shape it expects. */
  // biome-ignore lint/suspicious/noExplicitAny: the seam between the sandbox's JSON and each test's expected shape
  body: any;
}

/** Calls the sandbox; `path` is relative to its base URL, e.g. `/api/v1/websites?page=2`. */
export async function call(sandbox: Sandbox, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.accept !== false) headers.Accept ??= "application/json";
  if (options.auth !== false) headers.Authorization ??= `Bearer ${sandbox.apiKey}`;
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}
