import { isIPv4, isIPv6 } from "node:net";

/**
 * The client a per-IP budget is counted for (docs/security.md, finding 32). An IPv6 connection
 * is given a whole /64 (a home line, a phone, a cloud server), so counting each IPv6 address
 * apart gave one client 2^64 budgets: IPv6 is counted by its /64 prefix, in one spelling
 * (`2001:db8:0:1::/64`: four groups, lower case, no leading zeros). An IPv4-mapped address
 * (`::ffff:192.0.2.1`, how a dual-stack server sees IPv4 clients) is that IPv4 address, so
 * IPv4 clients never share the /64 `0:0:0:0::/64`. Anything else (no address: "unknown") is
 * returned as it is.
 */
export function rateLimitClientOf(address: string): string {
  if (isIPv4(address)) return address;
  const withoutZone = address.replace(/%.*$/, "");
  if (!isIPv6(withoutZone)) return address;
  const groups = ipv6Groups(withoutZone);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? address.slice(0, dotted.index) +
      [(+dotted[1]! << 8) | +dotted[2]!, (+dotted[3]! << 8) | +dotted[4]!].map((group) => group.toString(16)).join(":")
    : address;
  const [head, tail] = hex.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
