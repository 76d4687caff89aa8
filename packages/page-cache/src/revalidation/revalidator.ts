/**
 * How hard a revalidation hits, as Next.js's revalidateTag(tag, profile): "max" marks entries
 * stale (served once more while regenerated); `{ expire: 0 }` expires them (takedowns: the next
 * visitor gets a fresh render, never the old page).
 */
export type RevalidationProfile = "max" | { expire: 0 };

/** What the revalidation route acts on: the page cache's invalidation records (page-cache.ts). */
export interface Revalidator {
  revalidatePath(path: string, profile?: RevalidationProfile): void;
  revalidateTag(tag: string, profile: RevalidationProfile): void;
  /**
   * Resolves once what was revalidated so far has reached the other instances (numbered and
   * published by Redis), or could not (Redis down: held, sent when it is back).
   */
  shared?(): Promise<void>;
}
