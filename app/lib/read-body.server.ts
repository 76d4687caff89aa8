/**
 * A request body read up to a limit (BodyTooLargeError beyond it: answer 413): the page cache's,
 * which its revalidation and purge handlers read their posts with.
 */
export { BodyTooLargeError, readBodyWithLimit } from "@cms-site/page-cache";
