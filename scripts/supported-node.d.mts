export function isSupportedNode(version: string): boolean;
export function runOnSupportedNode(scriptUrl: string): Promise<void>;
