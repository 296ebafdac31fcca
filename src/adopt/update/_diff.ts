/**
 * The diff an update shows: `createTwoFilesPatch`'s unified diff with 3 lines of context, computed window by
 * window around the edits, since every line between them is the original's (DESIGN §8, scale: Myers' diff of
 * a 100,000-website file with 2,000 edits took 3 s, the rest of the update a second).
 */
import { formatPatch, type StructuredPatch, structuredPatch } from "diff";
import { type Edits, type Patch, type SourceText, splice } from "./_text.ts";

const CONTEXT = 3;

export function editDiff(file: string, source: SourceText, edits: Edits): string {
  const hunks: StructuredPatch["hunks"] = [];
  let shift = 0;
  for (const { first, last, patches } of windows(source, edits.patches())) {
    const start = source.start(first);
    const before = source.text.slice(start, source.start(last + 1));
    const after = splice(before, start, patches);
    for (const hunk of structuredPatch(file, file, before, after, undefined, undefined, { context: CONTEXT }).hunks) {
      hunks.push({ ...hunk, oldStart: hunk.oldStart + first, newStart: hunk.newStart + first + shift });
    }
    shift += lineCount(after) - lineCount(before);
  }
  return formatPatch({ oldFileName: file, newFileName: file, oldHeader: undefined, newHeader: undefined, hunks });
}

/**
 * The edits grouped by the lines they change, with their context: groups closer than two contexts are one,
 * as a diff joins their hunks. Each window holds its edits' lines and `CONTEXT` lines around them.
 */
function windows(source: SourceText, patches: readonly Patch[]): { first: number; last: number; patches: Patch[] }[] {
  const groups: { first: number; last: number; patches: Patch[] }[] = [];
  for (const patch of patches) {
    const first = source.lineOf(patch.start);
    const last = Math.max(first, source.lineOf(Math.max(patch.start, patch.end - 1)));
    const group = groups.at(-1);
    if (group && first <= group.last + 2 * CONTEXT + 1) {
      group.last = Math.max(group.last, last);
      group.patches.push(patch);
    } else groups.push({ first, last, patches: [patch] });
  }
  return groups.map((group) => ({
    ...group,
    first: Math.max(0, group.first - CONTEXT),
    last: Math.min(source.lineCount - 1, group.last + CONTEXT),
  }));
}

function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
