/**
 * The one comparison of secrets in the site (bearer headers; signed values, the preview links among
 * them, compare their MACs in app/lib/signed-value.server.ts): the page cache's, whose
 * revalidation and purge handlers guard their posts with it. Both sides are hashed first so the
 * comparison takes the same time whatever the lengths; timingSafeEqual compares the digests.
 */
export { bearerMatches, secretMatches } from "@cms-site/page-cache";
