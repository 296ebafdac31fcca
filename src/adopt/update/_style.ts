/**
 * How the file writes its values, so that what `export --update` writes reads like the rest of the file:
 * privacy by name or number, flags as booleans or 0/1, `exclude_ips` as flow or block lists.
 */
import { type Document, isMap, isScalar, isSeq, type Node, Scalar, stringify, visit, type YAMLMap, type YAMLSeq } from "yaml";
import { escapeReferences } from "../../config/interpolate.ts";
import { keyName } from "../../config/locate.ts";
import { FIELD_NAMES, PRIVACY_NAMES, type Privacy, WEBSITE_FIELDS } from "../../model/website-fields.ts";
import type { SourceText } from "./_text.ts";

export interface FileStyle {
  privacyNames: boolean;
  bitsAsNumbers: boolean;
  ips: {
    /** `undefined`: the file has no non-empty list, so use export's rule (flow up to 3 entries). */
    block: boolean | undefined;
    /** `[ a, b ]` rather than `[a, b]`. */
    padding: boolean;
    quote: Scalar.Type;
    /** Columns from the key to the `-` of a block list. */
    dashOffset: number;
  };
}

/** The kinds (`typeof`) of the privacy values and of the flag values that `defaults` and the entries write. */
export interface ValueStyle {
  privacy: ReadonlySet<string>;
  bits: ReadonlySet<string>;
}

/** The keys of the flag fields: every one writes its bits alike (`true`/`false` or 1/0), so any shows the habit. */
export const FLAG_KEYS: readonly string[] = FIELD_NAMES.filter((field) => WEBSITE_FIELDS[field].kind === "flag").map(
  (field) => WEBSITE_FIELDS[field].yaml,
);

/**
 * The style of `defaults` and every website entry; where the file never says, the style of `sitesync export`.
 * `values`: the kinds of values, when `doc` holds only some of the entries (_document.ts).
 */
export function detectStyle(doc: Document, source: SourceText, values?: ValueStyle): FileStyle {
  const maps = [doc.get("defaults", true), ...itemsOf(doc.get("websites", true))].filter(isMap);
  const valuesOf = (key: string) => maps.flatMap((map) => map.items.filter((p) => keyName(p.key) === key).map((p) => p.value));
  const lists = valuesOf("exclude_ips").filter((v): v is YAMLSeq => isSeq(v));
  const kinds = values ?? scalarKinds(valuesOf);
  return { ...kindsStyle(kinds), ips: listStyle(doc, source, maps, lists) };
}

function scalarKinds(valuesOf: (key: string) => unknown[]): ValueStyle {
  const kinds = (keys: readonly string[]) =>
    new Set(
      keys.flatMap((key) =>
        valuesOf(key)
          .filter(isScalar)
          .map((s) => typeof s.value),
      ),
    );
  return { privacy: kinds(["privacy"]), bits: kinds(FLAG_KEYS) };
}

function kindsStyle({ privacy, bits }: ValueStyle): Pick<FileStyle, "privacyNames" | "bitsAsNumbers"> {
  return {
    privacyNames: !(privacy.has("number") && !privacy.has("string")),
    bitsAsNumbers: bits.has("number") && !bits.has("boolean"),
  };
}

function listStyle(doc: Document, source: SourceText, maps: readonly YAMLMap[], lists: readonly YAMLSeq[]): FileStyle["ips"] {
  const filled = lists.find((list) => list.items.length > 0);
  // Padding is a habit of the whole file: any non-empty flow list says it (`x-` anchors included).
  const flows: YAMLSeq[] = [];
  visit(doc, { Seq: (_, seq) => void (seq.flow && seq.items.length > 0 && seq.range && flows.push(seq)) });
  const flow = flows[0];
  const firstItem = filled?.items[0];
  const keyOf = (list: YAMLSeq) => maps.flatMap((m) => m.items).find((p) => p.value === list)?.key;
  const dashOffset = (() => {
    const key = filled && !filled.flow ? keyOf(filled) : undefined;
    if (!isScalar(key) || !key.range || !filled?.range) return 2;
    return source.column(filled.range[0]) - source.column(key.range[0]);
  })();
  return {
    block: filled ? !filled.flow : undefined,
    padding: flow?.range ? source.text[flow.range[0] + 1] === " " : true,
    quote: isScalar(firstItem) && firstItem.type ? firstItem.type : Scalar.PLAIN,
    dashOffset: Math.max(dashOffset, 0),
  };
}

function itemsOf(node: unknown): unknown[] {
  return isSeq(node) ? node.items : [];
}

/**
 * A value read from the account as a string scalar in a quoting style, written so that loading the file gives
 * it back as is: `${` as `$${` (DESIGN §2, as `export` writes it), and plain only where YAML reads it back as
 * the same string in a block and in a `[...]` list alike (a flow indicator ends a plain value there).
 */
export function renderString(value: string, quote: Scalar.Type | undefined = Scalar.PLAIN): string {
  const text = escapeReferences(value);
  if (quote === Scalar.QUOTE_DOUBLE || /[[\]{},]/.test(text)) return JSON.stringify(text);
  if (quote === Scalar.QUOTE_SINGLE) return `'${text.replaceAll("'", "''")}'`;
  return stringify(text, { lineWidth: 0 }).trimEnd();
}

/** A privacy value like `like` writes it (a number, or a name in its quotes), else in the file's style. */
export function renderPrivacy(value: Privacy, style: FileStyle, like?: Node): string {
  const names = isScalar(like) ? typeof like.value === "string" : style.privacyNames;
  const name = PRIVACY_NAMES[value];
  return names ? renderString(name, isScalar(like) ? like.type : undefined) : String(value);
}

/** `email` and `exclude_bots`: canonical 0/1 (API-NOTES §2.4), written as the file writes flags. */
export function renderBit(value: number, style: FileStyle, like?: Node): string {
  const numbers = isScalar(like) ? typeof like.value === "number" : style.bitsAsNumbers;
  return numbers ? String(value) : String(value !== 0);
}

export function renderFlowList(items: readonly string[], padding: boolean): string {
  if (items.length === 0) return "[]";
  const pad = padding ? " " : "";
  return `[${pad}${items.join(", ")}${pad}]`;
}
