"use strict";

const { eachUserWrite } = require("../utils/user-writes");

/**
 * The user's two-factor state (docs/decisions/0020-account-lifecycle.md, "Two-factor"): private
 * attributes of plugin::users-permissions.user that no API returns, no caller can write and the
 * admin's forms do not show. Only the two-factor controller (../controllers/account-two-factor.js) writes them, through the
 * TWO_FACTOR_WRITE marker (a JSON body cannot carry a Symbol); anything else a write carries
 * for them (PUT /api/users/:id passes its body on as it is) is dropped.
 */

const TWO_FACTOR = Object.freeze({
  /** boolean: a second factor is asked at sign-in */
  enabled: "twoFactorEnabled",
  /** the TOTP secret, sealed (AES-256-GCM, ../services/two-factor/secret-box.js) */
  secret: "twoFactorSecret",
  /** the secret of an enrolment not yet confirmed with a code, sealed */
  pendingSecret: "twoFactorPendingSecret",
  /** JSON list of the unused recovery codes' hashes */
  recoveryCodes: "twoFactorRecoveryCodes",
  /** the last accepted TOTP time step: that step and earlier ones are refused (no replay) */
  lastStep: "twoFactorLastStep",
  /** wrong codes in a row, and until when codes are refused (../services/two-factor/backoff.js) */
  failures: "twoFactorFailures",
  lockedUntil: "twoFactorLockedUntil",
});

const TWO_FACTOR_WRITE = Symbol("users-permissions.twoFactor");

const hidden = { private: true, configurable: false, writable: false, visible: false };
const TWO_FACTOR_ATTRIBUTES = {
  [TWO_FACTOR.enabled]: { type: "boolean", default: false, ...hidden },
  [TWO_FACTOR.secret]: { type: "text", ...hidden },
  [TWO_FACTOR.pendingSecret]: { type: "text", ...hidden },
  [TWO_FACTOR.recoveryCodes]: { type: "json", ...hidden },
  [TWO_FACTOR.lastStep]: { type: "integer", ...hidden },
  [TWO_FACTOR.failures]: { type: "integer", default: 0, ...hidden },
  [TWO_FACTOR.lockedUntil]: { type: "datetime", ...hidden },
};

const FIELD_NAMES = Object.values(TWO_FACTOR);

/**
 * The data of a user write, made safe (in place): the two-factor fields a caller sent are
 * dropped; those of a TWO_FACTOR_WRITE marker (an object of field name → value) are written.
 */
function guardTwoFactorData(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return;
  for (const name of FIELD_NAMES) delete data[name];
  const write = data[TWO_FACTOR_WRITE];
  delete data[TWO_FACTOR_WRITE];
  if (!write || typeof write !== "object") return;
  for (const name of FIELD_NAMES) if (Object.hasOwn(write, name)) data[name] = write[name];
}

/** Database lifecycles of the user: every create and update goes through guardTwoFactorData. */
function twoFactorLifecycles() {
  return eachUserWrite(guardTwoFactorData);
}

/**
 * Adds the attributes and the write guard to the users-permissions user (./index.js); the admin
 * panel does not show the fields (./hidden-account-fields.js).
 */
function extendTwoFactor(points) {
  points.addUserAttributes(TWO_FACTOR_ATTRIBUTES);
  points.guardUserWrites(guardTwoFactorData);
}

module.exports = {
  extendTwoFactor,
  TWO_FACTOR,
  TWO_FACTOR_WRITE,
  TWO_FACTOR_ATTRIBUTES,
  guardTwoFactorData,
  twoFactorLifecycles,
};
