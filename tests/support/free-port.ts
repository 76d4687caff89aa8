import { readFileSync } from "node:fs";

import getPort from "get-port";

/**
 * A free TCP port for a service a test or benchmark starts, picked below the kernel's ephemeral
 * range. get-port's own pick is a port the kernel chose, inside that range: between the pick and
 * the service's bind, any outgoing connection on the machine (a fetch, a CMS talking to its mail
 * server) may be given that same port as its local end, and the service fails with EADDRINUSE
 * ("Port … is already in use": seen once in a clean run, the site of tests/integration/forms).
 * Ports below the range are never handed to outgoing connections. The order is random, so two
 * processes picking at once rarely try the same port; a taken one is skipped.
 */
export default function freePort(): Promise<number> {
  return getPort({ port: candidates() });
}

const LOWEST = 10_000;

function* candidates(): Generator<number> {
  const highest = ephemeralLow() - 1;
  const span = highest - LOWEST + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) yield LOWEST + ((start + i) % span);
}

/** The first port of Linux's ephemeral range (32768 by default); elsewhere, that default. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}
