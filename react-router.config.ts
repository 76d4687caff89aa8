import type { Config } from "@react-router/dev/config";

export default {
  // Server-side rendering for every route: pages come from the CMS at request time
  // and are cached by server/ (ISR), not prerendered at build time.
  ssr: true,
  future: {
    // Router context (createContext / context.get) is how per-request dependencies
    // such as the CMS client reach loaders; see app/lib/request-context.server.ts.
    v8_middleware: true,
  },
} satisfies Config;
