/**
 * Many sends' reads and writes as one statement: calls that arrive while a key's groups are under way (two at
 * most) wait and then go together in the next group (no timer, so a lone call goes at once). Concurrent sends of a
 * workspace (a campaign's batch, an agents' busy inbox) then cost a statement per group where each cost one,
 * which on a shared machine is the client's CPU (building, writing and parsing each statement) more than the
 * database's. The pacer (pacer.ts) and the final writes (accepted-sends.ts) share their statements the same way.
 */

/** One call's answer: a value, or the error of that call alone (the group's others go on). */
export type Settled<O> = { value: O } | { error: unknown };

export interface CoalesceOptions {
  /** Calls one statement takes at most (the rest go in the next). */
  max?: number;
  /** Groups of one key under way at once (default 2: a call need not wait for a whole statement before its own). */
  inFlight?: number;
}

/**
 * Wraps `run` (the statement for a group of calls of one key, answering each call's result in order) as a
 * function of one call. A throw of `run` fails every call of its group.
 */
export function coalesced<I, O>(keyOf: (item: I) => string, run: (key: string, items: I[]) => Promise<Settled<O>[]>, opts: CoalesceOptions = {}) {
  const max = opts.max ?? 500;
  const inFlight = opts.inFlight ?? 2;
  const waiting = new Map<string, { item: I; resolve(value: O): void; reject(err: unknown): void }[]>();
  const running = new Map<string, number>();

  function runWaiting(key: string): void {
    const list = waiting.get(key);
    const under = running.get(key) ?? 0;
    if (under >= inFlight || !list?.length) return;
    const group = list.splice(0, max);
    if (list.length === 0) waiting.delete(key);
    running.set(key, under + 1);
    run(
      key,
      group.map((g) => g.item),
    )
      .then(
        (results) =>
          group.forEach((g, i) => {
            const r = results[i];
            if (r && 'value' in r) g.resolve(r.value);
            else g.reject(r ? r.error : new Error('no result for a coalesced call'));
          }),
        (err) => group.forEach((g) => g.reject(err)),
      )
      .finally(() => {
        const left = running.get(key)! - 1;
        if (left === 0) running.delete(key);
        else running.set(key, left);
        runWaiting(key);
      });
  }

  return (item: I): Promise<O> =>
    new Promise<O>((resolve, reject) => {
      const key = keyOf(item);
      let list = waiting.get(key);
      if (!list) waiting.set(key, (list = []));
      list.push({ item, resolve, reject });
      runWaiting(key);
    });
}

/** Runs `f` for one item and answers its result as Settled (a throw is that item's error). */
export async function settle<O>(f: () => Promise<O> | O): Promise<Settled<O>> {
  try {
    return { value: await f() };
  } catch (error) {
    return { error };
  }
}
