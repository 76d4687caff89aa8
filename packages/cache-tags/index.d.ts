/** The most tags (and, separately, the most paths) one revalidation request may carry. */
export declare const MAX_TAGS: 1000;
/** The most paths one CDN purge request carries (each path adds its path tag: 500 + 500 ≤ MAX_TAGS). */
export declare const MAX_PURGE_PATHS: 500;
/** The longest tag either half accepts. */
export declare const MAX_TAG_LENGTH: 256;
/** The longest site path either half accepts. */
export declare const MAX_PATH_LENGTH: 2048;
/** A tag is a non-empty word without spaces or commas, at most MAX_TAG_LENGTH long. */
export declare function isValidTag(tag: unknown): tag is string;
/** `cms:<uid>`: every read of the type records it. */
export declare function typeTag(uid: string): string;
/** `cms:<uid>:<documentId>`: one document, all its locales. */
export declare function documentTag(uid: string, documentId: string): string;
/** Whether a tag names one document (documentTag), not a type or a list. */
export declare function isDocumentTag(tag: string): boolean;
/** `cms:<uid>:list:<locale|*>[:<attribute>=<documentId>]`: a type's published list. */
export declare function listTag(
  uid: string,
  locale: string | null | undefined,
  filter?: { attribute: string; documentId: string },
): string;
/** `cms:<uid>:neighbours:<locale|*>:<documentId>`: a document's previous/next links. */
export declare function neighboursTag(uid: string, locale: string | null | undefined, documentId: string): string;
/** `cms:<uid>:field:<locale|*>:<attribute>`: an attribute's values in a locale's list. */
export declare function fieldTag(uid: string, locale: string | null | undefined, attribute: string): string;
/** `path:` */
export declare const PATH_TAG_PREFIX: "path:";
/** `path:<path>`: every cached answer at a site path carries it. */
export declare function pathTag(path: string): string;
