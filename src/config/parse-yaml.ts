import type { Document, LineCounter, YAMLError } from "yaml";
import type { Diagnostic } from "../errors.ts";
import { yamlPackage } from "./yaml-package.ts";
import { unclosedQuote } from "./yaml-scan.ts";

export interface ParsedYaml {
  doc: Document;
  lineCounter: LineCounter;
  /** YAML syntax errors (the tree is then not trustworthy) and warnings. */
  diagnostics: Diagnostic[];
}

/**
 * Parses the config with positions (DESIGN §10: `parseDocument` with a `LineCounter`, check `doc.errors`
 * before `toJS`). Duplicate keys are errors; `<<` merge keys work, so anchors can share settings.
 */
export function parseYaml(file: string, text: string): ParsedYaml {
  const { LineCounter, parseDocument } = yamlPackage();
  const lineCounter = new LineCounter();
  // logLevel "error": yaml's warnings are reported with the file's others, never printed by yaml itself (a
  // list as a key would print Node's warning on stderr when `toJS` writes it as a string).
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true, logLevel: "error" });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col, path: "" };
  };
  const errors = doc.errors.map((e) => ({ ...at(errorOffset(e, text)), ...describe(e, text), severity: "error" as const }));
  const diagnostics: Diagnostic[] = [
    ...flowReference(text, errors, at),
    ...doc.warnings.map((e) => ({ ...at(e.pos[0]), ...describe(e, text), severity: "warning" as const })),
  ];
  // An alias is written with a `*`: a file without one (an export) is not walked again for them (DESIGN §8, Loading).
  if (text.includes("*")) reportUnknownAliases(doc, at, diagnostics);
  return { doc, lineCounter, diagnostics };
}

/** A `${` with no quote before it on its line, after a `[` or a `{`: a reference inside a flow collection. */
const FLOW_REFERENCE = /[[{][^\n"'#]*?(\$\{)/;

/**
 * `{password: ${PW}}` or `[${OFFICE}]`: inside `[ ]` and `{ }`, `{` starts a mapping, so the unquoted reference
 * breaks the rest of the file into a dozen errors. They are told as one, at the `${`: the first error's line.
 */
function flowReference(
  text: string,
  errors: Diagnostic[],
  at: (offset: number) => Pick<Diagnostic, "file" | "line" | "column" | "path">,
): Diagnostic[] {
  const first = errors[0];
  if (first === undefined || !text.includes("${")) return errors;
  const lines = text.split("\n", first.line);
  const found = FLOW_REFERENCE.exec(lines[first.line - 1] ?? "");
  if (found === null) return errors;
  const offset = lines.slice(0, -1).reduce((sum, line) => sum + line.length + 1, 0) + found.index + found[0].length - 2;
  const message = 'invalid YAML: inside [ ] or { } a ${VAR} must be quoted, as in ["${OFFICE_IP}"] or {password: "${PW}"}';
  return [{ ...at(offset), code: "yaml.flow-reference", message, severity: "error" }];
}

function reportUnknownAliases(
  doc: Document,
  at: (offset: number) => Pick<Diagnostic, "file" | "line" | "column" | "path">,
  diagnostics: Diagnostic[],
): void {
  const { isAlias, isNode, visit } = yamlPackage();
  // The anchors met so far, in the document's order: `Alias.resolve` walks the whole document for each alias,
  // which took minutes for a file whose 100,000 websites each say `password: *p`.
  const anchors = new Set<string>();
  visit(doc, (_, node) => {
    if (!isNode(node)) return;
    if (!isAlias(node)) {
      if (node.anchor) anchors.add(node.anchor);
      return;
    }
    if (anchors.has(node.source) || !node.range) return;
    diagnostics.push({
      ...at(node.range[0]),
      code: "yaml.unknown-alias",
      message: `alias *${node.source} has no anchor &${node.source} before it`,
      severity: "error",
    });
  });
}

/**
 * Where to point at: yaml reports an unclosed quote at the end of the file, where nothing can be fixed; the
 * quote that opens it is the line to look at.
 */
function errorOffset(error: YAMLError, text: string): number {
  const quote = error.code === "MISSING_CHAR" ? openQuote(error, text) : undefined;
  return quote ?? error.pos[0];
}

/** The offset of a quote that is never closed, when `error` is about it (yaml reports it at the end of the file). */
function openQuote(error: YAMLError, text: string): number | undefined {
  const at = unclosedQuote(text);
  return at !== undefined && error.pos[0] >= at ? at : undefined;
}

/**
 * Better words for the mistakes people make most, otherwise yaml's message. One yaml code covers several
 * mistakes (MISSING_CHAR: an unclosed quote, a key without its value, a list item without its "- "), so they
 * are told apart by the source the error points at, never by yaml's wording (STYLE habit 16).
 */
function describe(error: YAMLError, text: string): { code: string; message: string } {
  const code = `yaml.${error.code.toLowerCase().replaceAll("_", "-")}`;
  switch (error.code) {
    case "DUPLICATE_KEY": {
      const key = /^\s*("[^"\n]*"|'[^'\n]*'|[^:#\n]+?)\s*:/.exec(text.slice(error.pos[0], error.pos[0] + 300))?.[1];
      const name = key ? ` "${key.replace(/^["']|["']$/g, "")}"` : "";
      return { code, message: `duplicate key${name}: a key may appear only once in a mapping` };
    }
    case "TAB_AS_INDENT":
      return { code, message: "a tab is used for indentation: YAML indents with spaces only" };
    case "BLOCK_AS_IMPLICIT_KEY":
      return {
        code,
        message:
          'invalid YAML: a mapping cannot start on its key\'s line ("policy: &p prune: true"); write its keys on the lines below, indented',
      };
    case "MULTIPLE_DOCS":
      return { code, message: 'the file holds more than one YAML document ("---"): sitesync reads exactly one' };
    case "BAD_ALIAS":
      if (text.slice(error.pos[0], error.pos[1]) === "&") {
        // exclude_params: [&] is what the docs' "& alone drops all parameters" naturally leads to.
        return { code, message: 'invalid YAML: a bare & starts an anchor; quote it ("&") to mean the character' };
      }
      return { code, message: `invalid YAML: ${lowerFirst(error.message)}` };
    case "MISSING_CHAR": {
      const quote = openQuote(error, text);
      if (quote !== undefined) return { code, message: `invalid YAML: the quote ${text[quote]} opened here is never closed` };
      // A key without its value is reported over the whole key; a list item without its "- " at the line's
      // indentation; the other MISSING_CHAR mistakes (flow collections, comments, tags) at one character.
      const at = text.slice(error.pos[0], error.pos[1]);
      if (at !== "" && at.trim() === "") {
        return { code, message: 'invalid YAML: this line is indented differently from the lines around it (or misses its "- ")' };
      }
      if (at.startsWith("#")) return { code, message: 'invalid YAML: a comment needs a space before its "#" ("value # note")' };
      if (at.length > 1 && !at.includes("\n")) {
        return { code, message: 'invalid YAML: a key needs a value; write a space after the colon ("key: value")' };
      }
      return { code, message: `invalid YAML: ${lowerFirst(error.message)}` };
    }
    default: {
      const message = lowerFirst(error.message);
      return { code, message: error.name === "YAMLWarning" ? message : `invalid YAML: ${message}` };
    }
  }
}

function lowerFirst(text: string): string {
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}
