/**
 * Laravel's LengthAwarePaginator through a ResourceCollection (API-NOTES §3): `data`, `links`, `meta`,
 * `status`, with `meta.links` windowed by UrlWindow as in Laravel 10.
 */
import { buildQuery, filterInt } from "./_php.ts";

export interface PageRequest<T> {
  /** The rows in final order; only the requested page is read. */
  total: number;
  at(index: number): T;
  /** `page` from the request input; invalid values mean page 1. */
  page: unknown;
  perPage: number;
  /** Base URL of the collection, e.g. `http://127.0.0.1:1234/api/v1/websites`. */
  path: string;
  /** `->appends([...])`, in order; null values are dropped from the links. */
  appends: ReadonlyArray<readonly [string, unknown]>;
}

interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** `Paginator::resolveCurrentPage`: a FILTER_VALIDATE_INT value of at least 1, else 1. */
function resolvePage(value: unknown): number {
  const page = filterInt(value);
  return page !== null && page >= 1 ? page : 1;
}

/** Builds the paginated body. `render` turns a row into its resource object. */
export function paginate<T>(request: PageRequest<T>, render: (row: T) => unknown): Record<string, unknown> {
  const { total, perPage } = request;
  const current = resolvePage(request.page);
  const lastPage = Math.max(Math.ceil(total / perPage), 1);
  const data: unknown[] = [];
  const offset = (current - 1) * perPage;
  for (let i = offset; i < Math.min(offset + perPage, total); i++) data.push(render(request.at(i)));

  const url = (page: number) => `${request.path}?${buildQuery([...request.appends, ["page", Math.max(page, 1)]])}`;
  const prev = current > 1 ? url(current - 1) : null;
  const next = current < lastPage ? url(current + 1) : null;
  const from = data.length > 0 ? offset + 1 : null;
  const links: PageLink[] = [
    { url: prev, label: "&laquo; Previous", active: false },
    ...windowLinks(current, lastPage, url),
    { url: next, label: "Next &raquo;", active: false },
  ];
  return {
    data,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: current,
      from,
      last_page: lastPage,
      links,
      path: request.path,
      per_page: perPage,
      to: from === null ? null : from + data.length - 1,
      total,
    },
    status: 200,
  };
}

const ON_EACH_SIDE = 3;

/** UrlWindow::get (Laravel 10): every page below 14 pages, else first/last two, a slider and "..." gaps. */
function windowLinks(current: number, lastPage: number, url: (page: number) => string): PageLink[] {
  const range = (from: number, to: number): PageLink[] => {
    const result: PageLink[] = [];
    for (let page = from; page <= to; page++) result.push({ url: url(page), label: String(page), active: page === current });
    return result;
  };
  const gap: PageLink = { url: null, label: "...", active: false };
  if (lastPage < ON_EACH_SIDE * 2 + 8) return range(1, lastPage);
  const window = ON_EACH_SIDE + 4;
  const start = range(1, 2);
  const finish = range(lastPage - 1, lastPage);
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), gap, ...finish];
  if (current > lastPage - window) return [...start, gap, ...range(lastPage - (window + (ON_EACH_SIDE - 1)), lastPage)];
  return [...start, gap, ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), gap, ...finish];
}
