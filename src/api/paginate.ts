import { ApiError } from "../errors.ts";
import type { Page, PageMeta, ReadProgress } from "./types.ts";

/** One listing endpoint read with a fixed sort and `per_page`. */
export interface Listing<T> {
  /** `GET` one page (1-based) through the shared scheduler. */
  page(n: number): Promise<Page<T>>;
  /** What must be unique across the listing: a website's id, a project's name. */
  key(item: T): string | number;
  /** The `per_page` asked for; pages before the last must hold this many. */
  perPage: number;
  /** The listing URL without `page`, for the integrity error. */
  url: string;
  /** "websites" or "projects", for messages. */
  noun: string;
  /** Page 1, already read (a lookup reads it first to weigh the cost): the first read starts from it. */
  first?: Page<T>;
  /** Told of each page read (and of how many there are) and of each re-read with its reason (DESIGN §5: nothing is silent). */
  onProgress?: ((event: ReadProgress) => void) | undefined;
}

/** Re-reads after the first read fails its integrity checks (DESIGN §5). */
const MAX_REREADS = 3;
/**
 * The largest account sitesync reads (DESIGN §12): 400,000 websites or projects, so 4,000 pages at
 * per_page 100, 4x the 100,000-website accounts it is built for (a cap at exactly 100,000 would make the
 * 100,001st website unreadable). A listing that claims more, or a `links.next` chain that runs longer, is
 * refused before it is read: an absurd `last_page` or an endless chain would run the process out of
 * memory. 400,000 websites take about 1 GB in memory, so the cap is not raised by an option.
 */
export const MAX_ITEMS = 400_000;

/** Why the caps below cannot be raised, said once in each message that names one. */
const FIXED_CAP = "4 times the 100,000-website accounts sitesync is built for; the cap is fixed";

/**
 * Every item of a listing, or an ApiError: never a partial list (DESIGN §5). Page 1 first, then pages
 * 2..last_page at once through the scheduler; `links.next` followed one by one when `meta` is missing.
 * The union must have no duplicate keys, every page but the last must be full, and its size must equal
 * `meta.total` as every page reported it. Otherwise someone changed the account mid-read: read it all again,
 * up to `MAX_REREADS` times, then fail with an ApiError of kind "integrity".
 */
export async function readAll<T>(listing: Listing<T>): Promise<T[]> {
  const problems: string[] = [];
  for (let read = 0; read <= MAX_REREADS; read++) {
    const pages = await readPages(listing, read === 0 ? listing.first : undefined);
    const problem = typeof pages === "string" ? pages : check(listing, pages);
    if (problem === undefined) return (pages as Page<T>[]).flatMap((page) => page.data);
    problems.push(problem);
    if (read < MAX_REREADS) listing.onProgress?.({ kind: "reread", noun: listing.noun, attempt: read + 2, of: MAX_REREADS + 1, problem });
  }
  throw new ApiError({
    kind: "integrity",
    method: "GET",
    url: listing.url,
    message:
      `the ${listing.noun} changed while they were read, ${problems.length} times in a row ` +
      `(${problems.join("; ")}); nothing was planned or changed: retry when the account is quiet`,
  });
}

async function readPages<T>(listing: Listing<T>, given: Page<T> | undefined): Promise<Page<T>[] | string> {
  const first = given ?? (await listing.page(1));
  let read = 1;
  const told = (of: number | undefined) => listing.onProgress?.({ kind: "page", noun: listing.noun, read, ...(of ? { of } : {}) });
  if (first.meta) {
    const last = checkMeta(listing, first.meta);
    told(last);
    const rest = Array.from({ length: last - 1 }, (_, i) =>
      listing.page(i + 2).then((page) => {
        read++;
        told(last);
        return page;
      }),
    );
    const pages = [first, ...(await Promise.all(rest))];
    const final = pages.at(-1)!;
    // A changed total is a changed account (re-read); a last page that links on with the same total is a lie.
    if (final.links?.next && final.meta?.total === first.meta.total) {
      throw boundError(
        listing,
        `the server contradicts itself: page ${last} is the last page by its own count (meta.last_page ${last}), ` +
          `yet it links to a next page (links.next); sitesync cannot tell whether websites are missing, so it ` +
          `planned and changed nothing: retry, and if it persists report the server's pagination to its operator`,
      );
    }
    return pages;
  }
  if (!first.links) {
    // Without meta or links a full page cannot tell whether more follow.
    return first.data.length < listing.perPage ? [first] : "the answer has neither meta nor links to page on";
  }
  return followNext(listing, first);
}

/** `last_page` must follow from `total ÷ per_page`, within the bound; a broken server is not re-read. */
function checkMeta<T>(listing: Listing<T>, meta: PageMeta): number {
  const { last_page: last, total, per_page: perPage } = meta;
  if (total > MAX_ITEMS) {
    throw boundError(listing, `meta.total says ${total} ${listing.noun}, more than the ${count(MAX_ITEMS)} sitesync reads (${FIXED_CAP})`);
  }
  const expected = Math.max(1, Math.ceil(total / perPage));
  if (perPage < 1 || total < 0 || last !== expected) {
    const why = `page 1 says last_page ${last} for a total of ${total} at per_page ${perPage}`;
    throw boundError(
      listing,
      `${why}, which do not agree: the server (or a proxy before it) counts its pages wrong, so sitesync ` +
        `cannot tell whether it read every website; nothing was planned or changed: report it to the server's operator`,
    );
  }
  if (last > maxPages(listing)) {
    throw boundError(
      listing,
      `page 1 says last_page ${last}, more than the ${count(maxPages(listing))} pages sitesync reads (${FIXED_CAP})`,
    );
  }
  return last;
}

/** The `meta`-less fallback. Only the page number is taken from `links.next`: the key never follows a host it names. */
async function followNext<T>(listing: Listing<T>, first: Page<T>): Promise<Page<T>[] | string> {
  const pages = [first];
  let current = 1;
  let next = first.links?.next ?? null;
  while (next !== null) {
    const n = pageNumberOf(next);
    if (n !== current + 1) return `links.next of page ${current} does not lead to page ${current + 1}`;
    if (n > maxPages(listing)) {
      throw boundError(listing, `links.next leads past page ${count(maxPages(listing))}, more pages than sitesync reads (${FIXED_CAP})`);
    }
    const page = await listing.page(n);
    pages.push(page);
    current = n;
    next = page.links?.next ?? null;
  }
  return pages;
}

function maxPages<T>(listing: Listing<T>): number {
  return Math.ceil(MAX_ITEMS / listing.perPage);
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function boundError<T>(listing: Listing<T>, message: string): ApiError {
  return new ApiError({ kind: "bound", method: "GET", url: listing.url, message });
}

function pageNumberOf(link: string): number | undefined {
  try {
    const value = new URL(link, "http://x").searchParams.get("page");
    return value && /^\d+$/.test(value) ? Number(value) : undefined;
  } catch {
    return undefined;
  }
}

/** The first integrity problem of a read, or undefined when it is consistent. */
function check<T>(listing: Listing<T>, pages: Page<T>[]): string | undefined {
  const meta = pages[0]?.meta;
  const perPage = meta?.per_page ?? listing.perPage;
  for (const [i, page] of pages.entries()) {
    const n = i + 1;
    if (meta && page.meta && (page.meta.total !== meta.total || page.meta.last_page !== meta.last_page)) {
      return `page ${n} reported ${page.meta.total} in total, page 1 ${meta.total}`;
    }
    const isLast = i === pages.length - 1;
    if (isLast ? page.data.length > perPage : page.data.length !== perPage) {
      return `page ${n} of ${pages.length} held ${page.data.length} items, expected ${isLast ? "at most " : ""}${perPage}`;
    }
  }
  const seen = new Set<string | number>();
  for (const page of pages) {
    for (const item of page.data) {
      const key = listing.key(item);
      if (seen.has(key)) return `${String(key)} was listed twice`;
      seen.add(key);
    }
  }
  if (meta && seen.size !== meta.total) return `read ${seen.size} of the ${meta.total} reported`;
  return undefined;
}
