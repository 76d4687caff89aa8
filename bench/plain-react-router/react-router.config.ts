import type { Config } from "@react-router/dev/config";

// A plain React Router SSR app, the yardstick for the site's uncached render (bench/render-vs-plain.ts).
export default { ssr: true } satisfies Config;
