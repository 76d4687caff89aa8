import type { CacheEntry, CacheStore } from "./types.ts";

/**
 * Two stores behind one: entries `isSmall` picks (not-found answers) live in a small budget of
 * their own, so a scan of random missing paths evicts other missing paths, never a real page.
 */
export class BudgetedStore<V> implements CacheStore<V> {
  constructor(
    private readonly main: CacheStore<V>,
    private readonly small: CacheStore<V>,
    private readonly isSmall: (entry: CacheEntry<V>) => boolean,
  ) {}

  get(key: string): CacheEntry<V> | undefined {
    return this.main.get(key) ?? this.small.get(key);
  }

  set(key: string, entry: CacheEntry<V>): void {
    // A key moves between budgets when its answer changes (a 404 that became a page).
    if (this.isSmall(entry)) {
      this.main.delete(key);
      this.small.set(key, entry);
    } else {
      this.small.delete(key);
      this.main.set(key, entry);
    }
  }

  delete(key: string): void {
    this.main.delete(key);
    this.small.delete(key);
  }

  get byteSize(): number {
    return this.main.byteSize + this.small.byteSize;
  }

  get count(): number {
    return this.main.count + this.small.count;
  }
}
