/**
 * What keeps the docs true: every relative link and #anchor resolves (anchors by GitHub's heading slugs), and
 * every `sitesync …` command line in a shell code block is read by the CLI's own strict parse.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { checkCommandLine } from "../../src/cli/_check-line.ts";

/** A problem found in a Markdown file, at its line. */
export interface DocProblem {
  file: string;
  line: number;
  message: string;
}

/** A line of the file and whether it sits inside a fenced code block (and the block's language). */
interface SourceLine {
  text: string;
  line: number;
  fence?: string;
}

function sourceLines(markdown: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, i) => {
    const opening = /^\s*(```|~~~)\s*([\w-]*)/.exec(text);
    if (opening) {
      fence = fence === undefined ? opening[2] || "text" : undefined;
      return;
    }
    lines.push(fence === undefined ? { text, line: i + 1 } : { text, line: i + 1, fence });
  });
  return lines;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to dashes (inline code and links by their text). */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor the headings of `markdown` make, a repeated one numbered as GitHub numbers it (`-1`, `-2`). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text, fence } of sourceLines(markdown)) {
    const heading = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text) : null;
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of the inline links outside code (blocks and spans), with their lines. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  for (const { text, line, fence } of sourceLines(markdown)) {
    if (fence !== undefined) continue;
    const prose = text.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: match[1]!, line });
  }
  return links;
}

/**
 * The problems of `markdown`'s links: a relative file that does not exist, an anchor that no heading makes.
 * `file` is the path of the Markdown file (relative paths resolve from its folder); `read` reads another one.
 */
export function linkProblems(file: string, markdown: string, read: (path: string) => string | undefined = readIfThere): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const { target, line } of linksOf(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
    const [path = "", anchor] = target.split("#", 2);
    const resolved = path === "" ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    const text = path === "" ? markdown : read(resolved);
    if (text === undefined) {
      problems.push({ file, line, message: `link to ${target}: ${resolved} does not exist` });
      continue;
    }
    if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(text).has(anchor)) {
      problems.push({ file, line, message: `link to ${target}: ${resolved} has no heading #${anchor}` });
    }
  }
  return problems;
}

function readIfThere(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  return path.endsWith(".md") ? readFileSync(path, "utf8") : "";
}

const SHELL = new Set(["sh", "bash", "console", "shell"]);

/**
 * The `sitesync …` commands in the shell code blocks of `markdown`, each as the words the CLI gets (in a
 * `console` block, only the lines with a `$ ` prompt): the prompt, `VAR=value` prefixes and `npx` dropped; each command of a `&&`, `||`, `;` or `|` chain on its own;
 * quotes removed; a comment, a redirection or `&` ends it. A line with a `<placeholder>` (`<printed port>`) is
 * not a command anyone can run as written, so it is left out.
 */
export function commandLinesOf(markdown: string): { argv: string[]; line: number; text: string }[] {
  const commands: { argv: string[]; line: number; text: string }[] = [];
  for (const { text, line, fence } of sourceLines(markdown)) {
    if (fence === undefined || !SHELL.has(fence) || /<[a-z][^<>]*>/i.test(text)) continue;
    const prompted = /^\s*\$ /.test(text);
    // In a console block, a line without a prompt is what a command printed.
    if (fence === "console" && !prompted) continue;
    for (const words of commandsOf(shellWords(text.replace(/^\s*\$ /, "")))) {
      while (words[0] !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) words.shift();
      if (words[0] === "npx") words.shift();
      if (words[0] === "sitesync") commands.push({ argv: words.slice(1), line, text: text.trim() });
    }
  }
  return commands;
}

const OPERATORS = new Set(["&&", "||", ";", "|"]);
const ENDS = /^(?:\d?>>?|<|&|#)/;

/** A line split into commands at `&&`, `||`, `;` and `|`, each command's words cut at a redirection or a comment. */
function commandsOf(words: { word: string; quoted: boolean }[]): string[][] {
  const commands: string[][] = [[]];
  let ended = false;
  for (const { word, quoted } of words) {
    if (!quoted && OPERATORS.has(word)) {
      commands.push([]);
      ended = false;
    } else if (!quoted && ENDS.test(word)) {
      if (word.startsWith("#")) break;
      ended = true;
    } else if (!ended) commands.at(-1)!.push(word);
  }
  return commands;
}

/** Shell words: quotes removed, `&&`, `||`, `;`, `|` and `&` split off; a `#` that starts a word ends the line. */
function shellWords(line: string): { word: string; quoted: boolean }[] {
  const words: { word: string; quoted: boolean }[] = [];
  let word: string | undefined;
  let quoted = false;
  const flush = () => {
    if (word !== undefined) words.push({ word, quoted });
    word = undefined;
    quoted = false;
  };
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === "'" || char === '"') {
      const close = line.indexOf(char, i + 1);
      const end = close < 0 ? line.length : close;
      word = (word ?? "") + line.slice(i + 1, end).replace(char === '"' ? /\\(.)/g : /$^/, "$1");
      quoted = true;
      i = end;
    } else if (/\s/.test(char)) flush();
    else if (char === "#" && word === undefined) break;
    else if (";|&".includes(char)) {
      flush();
      const pair = line[i + 1] === char && char !== ";";
      words.push({ word: pair ? char + char : char, quoted: false });
      if (pair) i++;
    } else word = (word ?? "") + char;
  }
  flush();
  return words;
}

/** The problems of `markdown`'s command lines: each one the CLI's parse refuses, with its message. */
export async function commandProblems(file: string, markdown: string): Promise<DocProblem[]> {
  const problems: DocProblem[] = [];
  for (const { argv, line, text } of commandLinesOf(markdown)) {
    try {
      await checkCommandLine(argv);
    } catch (error) {
      problems.push({ file, line, message: `${text}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return problems;
}
