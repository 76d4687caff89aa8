import { describe, expect, it } from "vitest";

import {
  isKnownDevice,
  KNOWN_DEVICE_COOKIE,
  knownDeviceValue,
  knownDeviceValueOf,
  lockoutKeyOf,
} from "./known-device.server.ts";

const SECRET = "known-device-unit-test-secret-0123456789";
const header = (value: string) => `theme=dark; ${KNOWN_DEVICE_COOKIE}=${value}; _ga=GA1.1`;

describe("known-device cookie", () => {
  it("vouches for the account it was issued for, whatever the address's case, and for no other", () => {
    const value = knownDeviceValue(SECRET, undefined, "Owner@Example.com");
    expect(isKnownDevice(SECRET, header(value), "owner@example.com")).toBe(true);
    expect(isKnownDevice(SECRET, header(value), "other@example.com")).toBe(false);
    expect(value).not.toMatch(/owner|example/i);
  });

  it("is worth nothing forged, tampered with, signed with another secret, or missing", () => {
    const value = knownDeviceValue(SECRET, undefined, "owner@example.com");
    const [ids, mac] = value.split(".") as [string, string];
    const forgedIds = knownDeviceValue("another-secret-0123456789-0123456789", undefined, "owner@example.com");
    for (const sent of [
      forgedIds,
      `${ids}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      `${ids}~${ids}.${mac}`,
      "",
      "garbage",
    ]) {
      expect(isKnownDevice(SECRET, header(sent), "owner@example.com"), sent).toBe(false);
    }
    expect(isKnownDevice(SECRET, undefined, "owner@example.com")).toBe(false);
  });

  it("keeps the latest five accounts of a browser, the newest first", () => {
    let value: string | undefined;
    const emails = ["a", "b", "c", "d", "e", "f"].map((name) => `${name}@example.com`);
    for (const email of emails) value = knownDeviceValue(SECRET, value && header(value), email);
    expect(isKnownDevice(SECRET, header(value!), "a@example.com")).toBe(false);
    for (const email of emails.slice(1)) expect(isKnownDevice(SECRET, header(value!), email), email).toBe(true);
    // Signing in to one already listed moves it to the front, without a second entry.
    const again = knownDeviceValue(SECRET, header(value!), "b@example.com");
    expect(again.split(".")[0]!.split("~")).toHaveLength(5);
    expect(isKnownDevice(SECRET, header(again), "f@example.com")).toBe(true);
  });

  it("reads the cookie among others", () => {
    expect(knownDeviceValueOf(header("x.y"))).toBe("x.y");
    expect(knownDeviceValueOf("a=b")).toBeUndefined();
    expect(knownDeviceValueOf(undefined)).toBeUndefined();
  });

  it("counts a known device's attempts apart from everyone else's", () => {
    expect(lockoutKeyOf("Owner@Example.com", false)).toBe("Owner@Example.com");
    const known = lockoutKeyOf("Owner@Example.com", true);
    expect(known).toBe(lockoutKeyOf("owner@example.com ", true));
    expect(known).not.toContain("owner");
  });
});
