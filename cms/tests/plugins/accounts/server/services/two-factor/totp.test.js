"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const {
  base32Encode,
  base32Decode,
  hotp,
  totp,
  timeStep,
  totpCodeOf,
  matchingStep,
  newSecret,
  otpauthUri,
} = require("../../../../../../src/plugins/accounts/server/services/two-factor/totp");

// RFC 6238 appendix B (SHA-1 rows): the key is the ASCII "12345678901234567890", 8 digits.
const RFC_KEY = Buffer.from("12345678901234567890", "ascii");
const RFC_VECTORS = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

test("TOTP matches RFC 6238's SHA-1 test vectors", () => {
  for (const [seconds, code] of RFC_VECTORS) assert.equal(totp(RFC_KEY, seconds * 1000, 8), code, String(seconds));
});

test("HOTP matches RFC 4226's test values (6 digits)", () => {
  const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
  expected.forEach((code, counter) => assert.equal(hotp(RFC_KEY, counter), code));
});

test("base32 (RFC 4648 vectors) round-trips; the decoder ignores case, spaces, padding; refuses others", () => {
  for (const [text, encoded] of [
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ]) {
    assert.equal(base32Encode(Buffer.from(text)), encoded);
    assert.equal(base32Decode(encoded).toString(), text);
  }
  assert.equal(base32Decode("mzxw 6ytb oi======").toString(), "foobar");
  assert.throws(() => base32Decode("MZXW1"), /base32/);
  const secret = newSecret();
  assert.match(secret, /^[A-Z2-7]{32}$/, "20 random bytes are 32 base32 characters");
  assert.equal(base32Decode(secret).length, 20);
  assert.notEqual(newSecret(), secret);
});

test("a code of the current step or one step either side matches; two steps off does not", () => {
  const now = 1_700_000_000_000;
  const step = timeStep(now);
  assert.equal(matchingStep(RFC_KEY, totp(RFC_KEY, now), now), step);
  assert.equal(matchingStep(RFC_KEY, hotp(RFC_KEY, step - 1), now), step - 1);
  assert.equal(matchingStep(RFC_KEY, hotp(RFC_KEY, step + 1), now), step + 1);
  assert.equal(matchingStep(RFC_KEY, hotp(RFC_KEY, step - 2), now), null);
  assert.equal(matchingStep(RFC_KEY, hotp(RFC_KEY, step + 2), now), null);
  assert.equal(matchingStep(RFC_KEY, "12345", now), null);
});

test("a typed TOTP code is 6 digits, spaces ignored", () => {
  assert.equal(totpCodeOf(" 123 456 "), "123456");
  for (const bad of [undefined, 123456, "12345", "1234567", "12345a", "ABCDE-FGHJK"])
    assert.equal(totpCodeOf(bad), null);
});

test("the otpauth URI names issuer and account, URL-encoded, with the code's parameters", () => {
  const uri = otpauthUri({ issuer: "Acme & Co", account: "ann+x@example.com", secret: "JBSWY3DPEHPK3PXP" });
  assert.ok(uri.startsWith("otpauth://totp/Acme%20%26%20Co:ann%2Bx%40example.com?"), uri);
  const params = Object.fromEntries(new URL(uri).searchParams);
  assert.deepEqual(params, {
    issuer: "Acme & Co",
    secret: "JBSWY3DPEHPK3PXP",
    algorithm: "SHA1",
    digits: "6",
    period: "30",
  });
});
