/** A config problem at a file:line:col, and the error that carries them (exit 1). */

/** One config problem at a place in a file: printed as `file:line:col path: message`. */
export interface Diagnostic {
  file: string;
  /** 1-based; 0 (with column 0) for a problem of the file as a whole, such as a missing file: no position is printed. */
  line: number;
  column: number;
  /** Stable identifier of the rule that fired, e.g. `schema.enum`, `domain.duplicate`. */
  code: string;
  /** Dotted path into the config, e.g. `websites[3].privacy`; empty for the whole file. */
  path: string;
  message: string;
  severity: "error" | "warning";
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = `${diagnosticPlace(d)}${d.severity === "warning" ? " (warning)" : ""}`;
  return d.path ? `${where} ${d.path}: ${d.message}` : `${where} ${d.message}`;
}

/** `file:line:col`, or the file alone for a problem of the whole file (a missing file is not at `1:1`). */
export function diagnosticPlace(d: Pick<Diagnostic, "file" | "line" | "column">): string {
  return d.line > 0 ? `${d.file}:${d.line}:${d.column}` : `${d.file}:`;
}

export class ConfigError extends Error {
  readonly code = "CONFIG";
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[], message?: string) {
    super(message ?? diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "ConfigError";
    this.diagnostics = diagnostics;
  }
}
