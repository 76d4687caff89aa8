import { describe, expect, it } from "vitest";

import { cookieNames } from "../cookie-names.ts";
import {
  isKnownDevice as isKnownDeviceNamed,
  KNOWN_DEVICE_MAX_AGE_SECONDS,
  knownDeviceValue as knownDeviceValueNamed,
  knownDeviceValueOf,
  lockoutKeyOf,
} from "./known-device.server.ts";

const SECRET = "known-device-unit-test-secret-0123456789";
// On http (development): the plain name.
const NAMES = cookieNames(false);
const header = (value: string) => `theme=dark; acme.known_device=${value}; _ga=GA1.1`;
const isKnownDevice = (secret: string, cookieHeader: string | undefined, email: string) =>
  isKnownDeviceNamed(secret, cookieHeader, email, NAMES);
const knownDeviceValue = (secret: string, cookieHeader: string | undefined, email: string) =>
  knownDeviceValueNamed(secret, cookieHeader, email, NAMES);

describe("known-device cookie", () => {
  it("vouches for the account it was issued for, whatever the address's case, and for no other", () => {
    const value = knownDeviceValue(SECRET, undefined, "Owner@Example.com");
    expect(isKnownDevice(SECRET, header(value), "owner@example.com")).toBe(true);
    expect(isKnownDevice(SECRET, header(value), "other@example.com")).toBe(false);
    expect(value).not.toMatch(/owner|example/i);
  });

  it("is worth nothing forged, tampered with, signed with another secret, or missing", () => {
    const value = knownDeviceValue(SECRET, undefined, "owner@example.com");
    const [payload, expiry, mac] = value.split(".") as [string, string, string];
    const ids = Buffer.from(payload, "base64url").toString();
    const forgedIds = knownDeviceValue("another-secret-0123456789-0123456789", undefined, "owner@example.com");
    for (const sent of [
      forgedIds,
      `${payload}.${expiry}.${mac.slice(0, 10)}${mac[10] === "A" ? "B" : "A"}${mac.slice(11)}`,
      `${Buffer.from(`${ids}~${ids}`).toString("base64url")}.${expiry}.${mac}`,
      // The format before the signed-value helper (`<ids>.<mac>`): such cookies are forgotten once.
      `${ids}.${mac}`,
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
    expect(Buffer.from(again.split(".")[0]!, "base64url").toString().split("~")).toHaveLength(5);
    expect(isKnownDevice(SECRET, header(again), "f@example.com")).toBe(true);
  });

  it("is forgotten a year after the last sign-in that renewed it", () => {
    const signedIn = Date.UTC(2026, 0, 1);
    const value = knownDeviceValueNamed(SECRET, undefined, "owner@example.com", NAMES, signedIn);
    const known = (now: number) => isKnownDeviceNamed(SECRET, header(value), "owner@example.com", NAMES, now);
    expect(known(signedIn + KNOWN_DEVICE_MAX_AGE_SECONDS * 1000 - 1)).toBe(true);
    expect(known(signedIn + KNOWN_DEVICE_MAX_AGE_SECONDS * 1000)).toBe(false);
  });

  it("reads the cookie among others", () => {
    expect(knownDeviceValueOf(header("x.y"), NAMES)).toBe("x.y");
    expect(knownDeviceValueOf("a=b", NAMES)).toBeUndefined();
    expect(knownDeviceValueOf(undefined, NAMES)).toBeUndefined();
  });

  it("on https, is read only under its __Host- name: one a sibling subdomain planted is no cookie of ours", () => {
    const https = cookieNames(true);
    const value = knownDeviceValueNamed(SECRET, undefined, "owner@example.com", https);
    expect(https.knownDevice).toBe("__Host-acme.known_device");
    expect(isKnownDeviceNamed(SECRET, `__Host-acme.known_device=${value}`, "owner@example.com", https)).toBe(true);
    for (const planted of [`acme.known_device=${value}`, `__Secure-acme.known_device=${value}`]) {
      expect(isKnownDeviceNamed(SECRET, planted, "owner@example.com", https), planted).toBe(false);
    }
    // A shadowing one sent first (a longer path) does not hide ours either.
    const both = `acme.known_device=x.y; __Host-acme.known_device=${value}`;
    expect(knownDeviceValueOf(both, https)).toBe(value);
  });

  it("counts a known device's attempts apart from everyone else's", () => {
    expect(lockoutKeyOf("Owner@Example.com", false)).toBe("Owner@Example.com");
    const known = lockoutKeyOf("Owner@Example.com", true);
    expect(known).toBe(lockoutKeyOf("owner@example.com ", true));
    expect(known).not.toContain("owner");
  });
});
