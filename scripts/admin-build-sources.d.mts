// Types of scripts/admin-build-sources.mjs, for tests/support/cms-server.ts.
export declare function adminBuildSources(cmsRoot: string): string[];
export declare function adminBuildIsCurrent(cmsRoot: string): boolean;
