import type { CacheEntry, CacheStore } from "./types.ts";

/**
 * In-process store: a Map kept in least-recently-used order, bounded by the bytes its
 * entries take (CacheEntry.size), not by their count.
 */
export class MemoryStore<V> implements CacheStore<V> {
  private readonly entries = new Map<string, CacheEntry<V>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onEvict: (entry: CacheEntry<V>) => void = () => {},
  ) {}

  get(key: string): CacheEntry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Move to the most-recently-used end.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CacheEntry<V>): void {
    this.delete(key);
    if (entry.size > this.maxBytes) return; // would evict everything and still not fit
    this.entries.set(key, entry);
    this.bytes += entry.size;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.size;
      this.onEvict(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  get byteSize(): number {
    return this.bytes;
  }

  get count(): number {
    return this.entries.size;
  }
}
