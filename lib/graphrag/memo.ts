// A memo by key, emptied when it grows past its limit: the same evidence is read for every claim and every answer that
// cites it, so what is derived from its text is kept by that text — bounded, so a long-running server does not grow.
export function boundedMemo<T>(limit: number): (key: string, build: () => T) => T {
  const store = new Map<string, T>();
  return (key, build) => {
    let hit = store.get(key);
    if (hit === undefined) {
      hit = build();
      if (store.size > limit) store.clear();
      store.set(key, hit);
    }
    return hit;
  };
}
