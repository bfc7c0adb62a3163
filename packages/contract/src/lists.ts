/**
 * Lists count exactly up to this many rows and page by number within them; past it a total says
 * "more than" and pages move by key (next, previous, last), so no request walks a deep offset.
 */
export const EXACT_LIST_LIMIT = 10_000;

/** A page of a list: `totalExact` false means "more than `total`"; `hasPrev`/`hasNext` steer keyset paging. */
export interface ListPage<T> {
  list: T[];
  total: number;
  totalExact: boolean;
  page: number | null;
  pageSize: number;
  hasPrev: boolean;
  hasNext: boolean;
}
