/** TRUST_PROXY as Express's "trust proxy" setting: false, a hop count, or a list of addresses (env refuses true). */
export function trustProxySetting(value: string): boolean | number | string {
  if (value === "false") return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
