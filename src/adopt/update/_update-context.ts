import { type Document, isAlias, type Node, visit } from "yaml";
import { holdsReference } from "../../config/interpolate.ts";
import { type ConfigPath, formatPath, type Locator } from "../../config/locate.ts";
import type { Diagnostic } from "../../errors.ts";
import type { FileStyle } from "./_style.ts";
import type { Edits, SourceText } from "./_text.ts";

/** What the passes of `updateConfig` share: the file as parsed, the edits so far and the refusals. */
export interface UpdateContext {
  file: string;
  source: SourceText;
  doc: Document;
  edits: Edits;
  style: FileStyle;
  /** Anchors that some alias refers to: changing or removing such a node changes other entries too. */
  aliases: ReadonlySet<string>;
  /** Whether any node carries an anchor (used or not) or is an alias. */
  anchored: boolean;
  diagnostics: Diagnostic[];
  /** Refuses the update, naming the place that cannot be updated safely. */
  refuse(path: ConfigPath, code: string, message: string): void;
  /** Whether the node's source text holds a `${VAR}` reference (`$${` is a literal). */
  hasVariable(node: Node): boolean;
}

export function createUpdateContext(
  init: Pick<UpdateContext, "file" | "source" | "doc" | "edits" | "style">,
  locate: Locator,
): UpdateContext {
  // One walk for both (DESIGN §8, scale: each walk of a 5,000-website tree costs as much as the edits).
  const aliases = new Set<string>();
  let anchored = false;
  visit(init.doc, {
    Node(_, node) {
      if (isAlias(node)) aliases.add(node.source);
      if (node.anchor || isAlias(node)) anchored = true;
    },
  });
  const diagnostics: Diagnostic[] = [];
  return {
    ...init,
    aliases,
    anchored,
    diagnostics,
    refuse(path, code, message) {
      diagnostics.push({ file: init.file, ...locate.value(path), code, path: formatPath(path), message, severity: "error" });
    },
    hasVariable(node) {
      const [start, end] = node.range ?? [0, 0];
      return holdsReference(init.source.text.slice(start, end));
    },
  };
}

/** Whether any node inside `node` carries an anchor that an alias refers to. */
export function holdsUsedAnchor(node: Node, aliases: ReadonlySet<string>): string | undefined {
  let found: string | undefined;
  visit(node, {
    Node(_, inner) {
      if (inner.anchor && aliases.has(inner.anchor)) {
        found = inner.anchor;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
