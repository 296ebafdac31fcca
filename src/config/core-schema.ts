/** js-yaml's schema for the fast parse (fast-yaml.ts): YAML 1.2's core schema, read as the `yaml` package reads it. */
import { CORE_SCHEMA, Type } from "js-yaml";

/**
 * Integers and floats as YAML 1.2's core schema reads them, as `yaml` does: js-yaml's own also read `0b101`,
 * `+0x1A` and `-0o7` as numbers, where `yaml` keeps text.
 */
const INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const FLOAT = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
/**
 * Whether a plain scalar may be a number at all: its first character is a digit, a sign or a dot. js-yaml
 * asks every plain scalar of a file (a 100,000-website export holds 600,000), and most are words and names.
 */
function mayBeNumber(data: string | null): data is string {
  // An empty node under an explicit tag (`!!int` alone) is asked about as null.
  if (typeof data !== "string") return false;
  const first = data.charCodeAt(0);
  return (first >= 0x30 && first <= 0x39) || first === 0x2d || first === 0x2b || first === 0x2e;
}
const coreInt = new Type("tag:yaml.org,2002:int", {
  kind: "scalar",
  resolve: (data: string | null) => mayBeNumber(data) && INT.test(data),
  construct: (data: string) =>
    data.startsWith("0o")
      ? Number.parseInt(data.slice(2), 8)
      : data.startsWith("0x")
        ? Number.parseInt(data.slice(2), 16)
        : Number.parseInt(data, 10),
});
const coreFloat = new Type("tag:yaml.org,2002:float", {
  kind: "scalar",
  resolve: (data: string | null) => mayBeNumber(data) && FLOAT.test(data) && !INT.test(data),
  construct: (data: string) => {
    const inf = /inf$/i.test(data);
    if (inf) return data.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    return /nan$/i.test(data) ? Number.NaN : Number.parseFloat(data);
  },
});
/** Later types of the same tag replace the core schema's own. No merge type: merges run after `${VAR}` (merge-keys.ts). */
export const CORE_SCHEMA_AS_YAML_READS = CORE_SCHEMA.extend({ implicit: [coreInt, coreFloat] });
