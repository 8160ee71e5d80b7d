import type { Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect } from 'react';

/**
 * Moves keyboard focus to row `index` of a virtualised list (rows carry `data-index`). The row may not be in
 * the DOM until the virtualiser has scrolled to it and rendered, so the lookup is retried for a few frames.
 */
export function scrollToRowAndFocus(
  virtualizer: Pick<Virtualizer<HTMLDivElement, Element>, 'scrollToIndex'>,
  scroller: RefObject<HTMLElement | null>,
  index: number,
) {
  virtualizer.scrollToIndex(index, { align: 'auto' });
  const focus = (tries: number) => {
    const el = scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    if (el) el.focus();
    else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
  };
  focus(5);
}

/** Loads the next page of a paged list once the last row rendered is within `ahead` rows of the end. */
export function useFetchNextPageNearEnd(
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> },
  lastRendered: number,
  loaded: number,
  ahead: number,
) {
  useEffect(() => {
    if (query.hasNextPage && !query.isFetchingNextPage && lastRendered >= loaded - ahead) void query.fetchNextPage();
  }, [lastRendered, loaded, ahead, query]);
}
