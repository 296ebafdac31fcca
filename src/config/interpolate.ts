/** An environment, as `process.env` is: a missing key and `undefined` both mean unset. */
export type Env = Readonly<Record<string, string | undefined>>;

interface InterpolationProblem {
  code: "env.unset" | "env.syntax";
  /** How many `${` come before this one in the string, to find it in the source. */
  occurrence: number;
  message: string;
  /** The variable's name, for `env.unset`. */
  name?: string;
}

export interface Interpolated {
  value: string;
  /** The environment values that were substituted (not defaults), for secret masking. */
  envValues: string[];
  problems: InterpolationProblem[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// `$${` first, so that an escaped reference is never read as one.
const TOKEN = /\$\$\{|\$\{([^}]*)(\})?/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in one string (DESIGN §2). `:-` uses the default when VAR is unset
 * or empty, as in the shell; `$${` stands for a literal `${`. An unset VAR without a default is a problem,
 * never an empty string, so that a missing secret cannot silently become an empty password.
 */
export function interpolate(text: string, env: Env): Interpolated {
  const envValues: string[] = [];
  const problems: InterpolationProblem[] = [];
  let occurrence = 0;
  const value = text.replace(TOKEN, (match: string, inner: string | undefined, close: string | undefined) => {
    const at = occurrence++;
    if (match === "$${") return "${";
    if (close === undefined) {
      problems.push({ code: "env.syntax", occurrence: at, message: '"${" is not closed by "}"; write $${ for a literal ${' });
      return match;
    }
    const [name = "", fallback] = splitDefault(inner ?? "");
    if (!NAME.test(name)) {
      problems.push({ code: "env.syntax", occurrence: at, message: syntaxMessage(name) });
      return match;
    }
    // `${A:-${B}}` would read its default as the text `${B`, then `}`: the shell nests them, sitesync does not.
    if (fallback?.includes("${")) {
      problems.push({
        code: "env.syntax",
        occurrence: at,
        message: "a default cannot hold another ${...} reference; write the default out",
      });
      return match;
    }
    const set = env[name];
    if (set !== undefined && (set !== "" || fallback === undefined)) {
      envValues.push(set);
      return set;
    }
    if (fallback !== undefined) return fallback;
    problems.push({
      code: "env.unset",
      occurrence: at,
      name,
      message: `environment variable ${name} is not set; set it, or give a default with \${${name}:-value}`,
    });
    return match;
  });
  return { value, envValues, problems };
}

/** A `${NAME}` or `${NAME:-default}` reference of a string, by the one grammar above. */
export interface Reference {
  name: string;
  hasDefault: boolean;
}

/** Every well-formed reference in `text`, in order (`$${` is a literal, never one). */
export function references(text: string): Reference[] {
  const found: Reference[] = [];
  for (const [match, inner, close] of text.matchAll(TOKEN)) {
    if (match === "$${" || close === undefined) continue;
    const [name = "", fallback] = splitDefault(inner ?? "");
    if (NAME.test(name)) found.push({ name, hasDefault: fallback !== undefined });
  }
  return found;
}

/** Whether `text` holds a `${`, well-formed or not, that is not the literal `$${`. */
export function holdsReference(text: string): boolean {
  for (const [match] of text.matchAll(TOKEN)) if (match !== "$${") return true;
  return false;
}

/** `text` written so that interpolating it gives it back as is: every `${` becomes `$${`. */
export function escapeReferences(text: string): string {
  return text.replaceAll("${", () => "$${");
}

function splitDefault(inner: string): [string, string | undefined] {
  const at = inner.indexOf(":-");
  return at === -1 ? [inner.trim(), undefined] : [inner.slice(0, at).trim(), inner.slice(at + 2)];
}

function syntaxMessage(name: string): string {
  const hint = "write ${NAME} or ${NAME:-default} (NAME: letters, digits and _), or $${ for a literal ${";
  // Never echo the text: a malformed reference may sit inside a password.
  return name === "" ? `empty \${} reference; ${hint}` : `invalid \${...} reference; ${hint}`;
}
