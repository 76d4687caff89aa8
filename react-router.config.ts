import type { Config } from "@react-router/dev/config";

export default {
  // Server-side rendering for every route: pages come from the CMS at request time
  // and are cached by server/ (ISR), not prerendered at build time.
  ssr: true,
} satisfies Config;
