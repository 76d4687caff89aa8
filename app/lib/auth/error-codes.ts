/**
 * Every way an auth step can fail, once: its code, the HTTP status it answers with, and what
 * a person is told. The JSON endpoints (/api/auth/*), the form actions and the sign-in page's
 * `?error=CODE` all take their answer from this table (errors.server.ts builds both shapes),
 * so a code means the same thing, with the same words, wherever it shows up.
 *
 * A message may take parameters (how long to wait, how large a body may be); without them it
 * still reads as a sentence, for the places that only have the code. Messages are ours, never
 * the CMS's or better-auth's words passed through. Safe for the browser (no secrets).
 */

export interface AuthErrorParams {
  /** RATE_LIMITED: how long until the next attempt is allowed. */
  retryAfterSeconds?: number;
  /** BODY_TOO_LARGE: the largest body read. */
  limitBytes?: number;
}

export type AuthErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503;

interface AuthErrorEntry {
  status: AuthErrorStatus;
  message: string | ((params: AuthErrorParams) => string);
  /** Messages shown next to fields of the form, by field name. */
  fieldErrors?: Readonly<Record<string, string>>;
}

export const AUTH_ERRORS = {
  // The request itself.
  INVALID_INPUT: { status: 400, message: "Please correct the highlighted fields." },
  CROSS_ORIGIN: { status: 403, message: "This form can only be sent from this site." },
  NOT_FOUND: { status: 404, message: "There is no such auth endpoint." },
  BODY_TOO_LARGE: {
    status: 413,
    message: ({ limitBytes }) =>
      limitBytes ? `This request is too large: at most ${limitBytes} bytes.` : "This request is too large.",
  },
  RATE_LIMITED: {
    status: 429,
    message: ({ retryAfterSeconds }) =>
      `Too many attempts. Please wait ${retryAfterSeconds ? `${retryAfterSeconds} seconds` : "a minute"} and try again.`,
  },

  // Signing in, registering, passwords.
  INVALID_CREDENTIALS: { status: 401, message: "Wrong email or password." },
  BLOCKED: { status: 403, message: "This account has been blocked." },
  EMAIL_NOT_CONFIRMED: {
    status: 403,
    message:
      "Please confirm your email address first: follow the link in the mail we sent you. " +
      "No mail? Ask for a new one on the confirmation page.",
  },
  INVALID_CONFIRMATION: {
    status: 400,
    message: "This confirmation link is invalid or was already used. Sign in, or ask for a new link.",
  },
  REGISTRATION_CLOSED: { status: 403, message: "Registration is closed." },
  REGISTRATION_REFUSED: {
    status: 400,
    message: "This email address or password was not accepted. Please check them and try again.",
  },
  INVALID_CODE: { status: 400, message: "This reset link is invalid or was already used. Ask for a new one." },
  RESET_LINK_EXPIRED: {
    status: 400,
    message: "This reset link has expired (links work for an hour). Nothing was changed. Ask for a new one.",
  },
  WRONG_CURRENT_PASSWORD: {
    status: 400,
    message: "Your current password is not right.",
    fieldErrors: { currentPassword: "This is not your current password." },
  },
  SAME_PASSWORD: {
    status: 400,
    message: "The new password must differ from the current one.",
    fieldErrors: { password: "Choose a password different from the current one." },
  },

  USERNAME_TAKEN: {
    status: 409,
    message: "This name is already taken.",
    fieldErrors: { username: "Someone else has this name: choose another." },
  },

  SIGN_IN_AGAIN: {
    status: 401,
    message: "For your safety, sign in again, then delete the account within 5 minutes.",
  },

  // The change of email (issue 15, point 2; docs/decisions/0020-account-lifecycle.md).
  SIGN_IN_AGAIN_EMAIL: {
    status: 401,
    message: "For your safety, sign in again, then change the email address within 5 minutes.",
  },
  SAME_EMAIL: {
    status: 400,
    message: "This is already your email address.",
    fieldErrors: { email: "Enter a different address from the one you have." },
  },
  EMAIL_CHANGE_INVALID: {
    status: 400,
    message: "This link is invalid or was already used. Nothing was changed. Ask for a new one on your account page.",
  },
  EMAIL_CHANGE_EXPIRED: {
    status: 400,
    message:
      "This link has expired (it works for an hour). Nothing was changed. Ask for a new one on your account page.",
  },
  EMAIL_CHANGE_TAKEN: {
    status: 409,
    message: "This address now belongs to another account, so nothing was changed.",
  },

  // The session.
  UNAUTHORIZED: { status: 401, message: "Please sign in first." },
  SESSION_EXPIRED: { status: 401, message: "Your session has expired. Please sign in again." },

  // Signing in with a provider (GitHub, Google, OpenID Connect); these also reach /sign-in?error=CODE.
  UNKNOWN_PROVIDER: {
    status: 400,
    message: "This sign-in provider is not available here. Choose one of the buttons below.",
  },
  OAUTH_SESSION_REQUIRED: { status: 401, message: "Sign in with a provider first." },
  OAUTH_LINK_GONE: { status: 401, message: "This sign-in is no longer linked to an account. Please sign in again." },
  OAUTH_EMAIL_EXISTS: {
    status: 409,
    message:
      "An account with this email already exists, and the provider did not confirm the address. Sign in with your password instead.",
  },
  OAUTH_ACCOUNT_UNCONFIRMED: {
    status: 409,
    message:
      "An account with this email already exists, and its address was never confirmed, so this sign-in was not joined to it. Sign in to that account as before (with your password, or reset it).",
  },
  OAUTH_OFF: { status: 503, message: "Signing in with this provider is not configured." },
  OAUTH_FAILED: { status: 500, message: "Signing in with that provider did not work. Please try again." },

  // The bot check of the sign-in, register and forgot-password forms (docs/decisions/0021). The
  // words never say which part failed (honeypot, token, time), and the form keeps what was typed.
  FORM_TOO_FAST: {
    status: 400,
    message: "That was quicker than we expect from a person. Please check the form and send it again.",
  },
  FORM_REJECTED: {
    status: 400,
    message: "This form could not be accepted: it may have been open for too long. Please send it again.",
  },

  // Two-factor authentication (issue 15, point 4; app/lib/auth/plugins/two-factor.server.ts).
  TWO_FACTOR_REQUIRED: {
    status: 403,
    message: "Enter the code from your authenticator app to finish signing in.",
  },
  TWO_FACTOR_EXPIRED: {
    status: 401,
    message: "This sign-in has expired (the code must follow the password within 5 minutes). Please sign in again.",
  },
  TWO_FACTOR_WRONG_CODE: {
    status: 400,
    message: "That code is not correct. Check the time on your device, or use a recovery code.",
    fieldErrors: { code: "Enter the current 6-digit code from your app, or one of your recovery codes." },
  },
  TWO_FACTOR_CODE_USED: {
    status: 400,
    message: "That code was already used. Wait for the next code in your app.",
    fieldErrors: { code: "Wait for the next code, then enter it." },
  },
  TWO_FACTOR_NO_PASSWORD: {
    status: 400,
    message:
      "This account has no password (it signs in with a provider): two-factor authentication is for accounts " +
      "with a password.",
  },
  TWO_FACTOR_NO_SETUP: {
    status: 400,
    message: "Start again: enter your password to get a new QR code.",
  },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: "Two-factor authentication is already on." },
  TWO_FACTOR_NOT_ENABLED: { status: 409, message: "Two-factor authentication is not on." },

  // Something else.
  CMS_UNAVAILABLE: { status: 503, message: "Accounts are unavailable right now. Please try again in a moment." },
  UNEXPECTED: { status: 500, message: "Something went wrong. Please try again." },
} as const satisfies Record<string, AuthErrorEntry>;

export type AuthErrorCode = keyof typeof AUTH_ERRORS;

/** A code's words in another language: the same message and field messages, translated. */
type TranslatedEntry = Pick<AuthErrorEntry, "message" | "fieldErrors">;

/**
 * The table's words in German, keyed by the same codes (a code still means one thing; only its
 * words change). Every code must be here (the type says so); the field names are the table's.
 */
const AUTH_ERRORS_DE: Record<AuthErrorCode, TranslatedEntry> = {
  INVALID_INPUT: { message: "Bitte korrigieren Sie die markierten Felder." },
  CROSS_ORIGIN: { message: "Dieses Formular kann nur von dieser Website gesendet werden." },
  NOT_FOUND: { message: "Diesen Anmelde-Endpunkt gibt es nicht." },
  BODY_TOO_LARGE: {
    message: ({ limitBytes }) =>
      limitBytes ? `Diese Anfrage ist zu groß: höchstens ${limitBytes} Bytes.` : "Diese Anfrage ist zu groß.",
  },
  RATE_LIMITED: {
    message: ({ retryAfterSeconds }) =>
      `Zu viele Versuche. Bitte warten Sie ${retryAfterSeconds ? `${retryAfterSeconds} Sekunden` : "eine Minute"} ` +
      "und versuchen Sie es dann noch einmal.",
  },
  INVALID_CREDENTIALS: { message: "E-Mail-Adresse oder Passwort ist falsch." },
  BLOCKED: { message: "Dieses Konto ist gesperrt." },
  EMAIL_NOT_CONFIRMED: {
    message:
      "Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse: Folgen Sie dem Link in unserer E-Mail. " +
      "Keine E-Mail erhalten? Fordern Sie auf der Bestätigungsseite eine neue an.",
  },
  INVALID_CONFIRMATION: {
    message:
      "Dieser Bestätigungslink ist ungültig oder wurde schon benutzt. Melden Sie sich an oder fordern Sie einen " +
      "neuen Link an.",
  },
  REGISTRATION_CLOSED: { message: "Die Registrierung ist geschlossen." },
  REGISTRATION_REFUSED: {
    message: "Diese E-Mail-Adresse oder dieses Passwort wurde nicht angenommen. Bitte prüfen Sie beides.",
  },
  INVALID_CODE: {
    message: "Dieser Link zum Zurücksetzen ist ungültig oder wurde schon benutzt. Fordern Sie einen neuen an.",
  },
  RESET_LINK_EXPIRED: {
    message:
      "Dieser Link zum Zurücksetzen ist abgelaufen (Links gelten eine Stunde). Nichts wurde geändert. " +
      "Fordern Sie einen neuen an.",
  },
  WRONG_CURRENT_PASSWORD: {
    message: "Ihr aktuelles Passwort stimmt nicht.",
    fieldErrors: { currentPassword: "Das ist nicht Ihr aktuelles Passwort." },
  },
  SAME_PASSWORD: {
    message: "Das neue Passwort muss sich vom aktuellen unterscheiden.",
    fieldErrors: { password: "Wählen Sie ein anderes Passwort als das aktuelle." },
  },
  USERNAME_TAKEN: {
    message: "Dieser Name ist schon vergeben.",
    fieldErrors: { username: "Jemand anderes hat diesen Namen: Wählen Sie einen anderen." },
  },
  SIGN_IN_AGAIN: {
    message: "Zu Ihrer Sicherheit: Melden Sie sich erneut an und löschen Sie das Konto dann innerhalb von 5 Minuten.",
  },
  // The change of email.
  SIGN_IN_AGAIN_EMAIL: {
    message:
      "Zu Ihrer Sicherheit: Melden Sie sich erneut an und ändern Sie die E-Mail-Adresse dann innerhalb von 5 Minuten.",
  },
  SAME_EMAIL: {
    message: "Das ist schon Ihre E-Mail-Adresse.",
    fieldErrors: { email: "Geben Sie eine andere Adresse als Ihre jetzige ein." },
  },
  EMAIL_CHANGE_INVALID: {
    message:
      "Dieser Link ist ungültig oder wurde schon benutzt. Es wurde nichts geändert. Fordern Sie auf Ihrer Kontoseite " +
      "einen neuen an.",
  },
  EMAIL_CHANGE_EXPIRED: {
    message:
      "Dieser Link ist abgelaufen (er gilt eine Stunde). Es wurde nichts geändert. Fordern Sie auf Ihrer Kontoseite " +
      "einen neuen an.",
  },
  EMAIL_CHANGE_TAKEN: {
    message: "Diese Adresse gehört inzwischen zu einem anderen Konto, deshalb wurde nichts geändert.",
  },
  UNAUTHORIZED: { message: "Bitte melden Sie sich zuerst an." },
  SESSION_EXPIRED: { message: "Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an." },
  UNKNOWN_PROVIDER: {
    message: "Diesen Anmeldedienst gibt es hier nicht. Wählen Sie einen der Knöpfe unten.",
  },
  OAUTH_SESSION_REQUIRED: { message: "Melden Sie sich zuerst bei einem Anmeldedienst an." },
  OAUTH_LINK_GONE: {
    message: "Diese Anmeldung ist mit keinem Konto mehr verbunden. Bitte melden Sie sich erneut an.",
  },
  OAUTH_EMAIL_EXISTS: {
    message:
      "Es gibt schon ein Konto mit dieser E-Mail-Adresse, und der Anmeldedienst hat die Adresse nicht bestätigt. " +
      "Melden Sie sich stattdessen mit Ihrem Passwort an.",
  },
  OAUTH_ACCOUNT_UNCONFIRMED: {
    message:
      "Es gibt schon ein Konto mit dieser E-Mail-Adresse, und seine Adresse wurde nie bestätigt, deshalb wurde " +
      "diese Anmeldung nicht damit verbunden. Melden Sie sich bei diesem Konto wie bisher an " +
      "(mit Ihrem Passwort, oder setzen Sie es zurück).",
  },
  OAUTH_OFF: { message: "Die Anmeldung mit diesem Dienst ist nicht eingerichtet." },
  OAUTH_FAILED: {
    message: "Die Anmeldung mit diesem Dienst hat nicht geklappt. Bitte versuchen Sie es noch einmal.",
  },
  // The bot check (docs/decisions/0021).
  FORM_TOO_FAST: {
    message:
      "Das ging schneller, als wir es von einem Menschen erwarten. Bitte prüfen Sie das Formular und senden Sie es " +
      "noch einmal.",
  },
  FORM_REJECTED: {
    message:
      "Dieses Formular konnte nicht angenommen werden: Vielleicht war es zu lange geöffnet. Bitte senden Sie es " +
      "noch einmal.",
  },
  // Two-factor authentication (issue 15, point 4).
  TWO_FACTOR_REQUIRED: {
    message: "Geben Sie den Code aus Ihrer Authenticator-App ein, um die Anmeldung abzuschließen.",
  },
  TWO_FACTOR_EXPIRED: {
    message:
      "Diese Anmeldung ist abgelaufen (der Code muss innerhalb von 5 Minuten nach dem Passwort folgen). Bitte " +
      "melden Sie sich erneut an.",
  },
  TWO_FACTOR_WRONG_CODE: {
    message:
      "Dieser Code stimmt nicht. Prüfen Sie die Uhrzeit Ihres Geräts oder verwenden Sie einen Wiederherstellungscode.",
    fieldErrors: { code: "Geben Sie den aktuellen 6-stelligen Code Ihrer App oder einen Wiederherstellungscode ein." },
  },
  TWO_FACTOR_CODE_USED: {
    message: "Dieser Code wurde schon benutzt. Warten Sie auf den nächsten Code in Ihrer App.",
    fieldErrors: { code: "Warten Sie auf den nächsten Code und geben Sie ihn dann ein." },
  },
  TWO_FACTOR_NO_PASSWORD: {
    message:
      "Dieses Konto hat kein Passwort (es meldet sich über einen Anmeldedienst an): Die Zwei-Faktor-Authentifizierung " +
      "ist für Konten mit Passwort.",
  },
  TWO_FACTOR_NO_SETUP: {
    message: "Beginnen Sie noch einmal: Geben Sie Ihr Passwort ein, um einen neuen QR-Code zu erhalten.",
  },
  TWO_FACTOR_ALREADY_ENABLED: { message: "Die Zwei-Faktor-Authentifizierung ist schon eingeschaltet." },
  TWO_FACTOR_NOT_ENABLED: { message: "Die Zwei-Faktor-Authentifizierung ist nicht eingeschaltet." },
  CMS_UNAVAILABLE: {
    message: "Konten sind gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.",
  },
  UNEXPECTED: { message: "Etwas ist schiefgelaufen. Bitte versuchen Sie es noch einmal." },
};

/** The words per locale; a locale without its own gets the table's (English) ones. */
export const AUTH_ERROR_TRANSLATIONS: Readonly<Record<string, Record<AuthErrorCode, TranslatedEntry>>> = {
  de: AUTH_ERRORS_DE,
};

/** One of the table's codes (and not, say, "constructor" or "__proto__")? */
export function isAuthErrorCode(value: unknown): value is AuthErrorCode {
  return typeof value === "string" && Object.hasOwn(AUTH_ERRORS, value);
}

function entryOf(code: AuthErrorCode): AuthErrorEntry {
  return AUTH_ERRORS[code];
}

function wordsOf(code: AuthErrorCode, locale: string | undefined): TranslatedEntry {
  const translated = locale && Object.hasOwn(AUTH_ERROR_TRANSLATIONS, locale) ? AUTH_ERROR_TRANSLATIONS[locale] : null;
  return translated?.[code] ?? entryOf(code);
}

export function authErrorStatus(code: AuthErrorCode): AuthErrorStatus {
  return entryOf(code).status;
}

/** The code's message in `locale` (the table's English one for a locale without its own words). */
export function authErrorMessage(code: AuthErrorCode, params: AuthErrorParams = {}, locale?: string): string {
  const { message } = wordsOf(code, locale);
  return typeof message === "string" ? message : message(params);
}

export function authErrorFieldErrors(code: AuthErrorCode, locale?: string): Record<string, string> {
  return { ...wordsOf(code, locale).fieldErrors };
}

/**
 * What the sign-in page shows for `?error=…`: the table's message for one of its codes (the
 * OAuth callback sends those), else the general one (better-auth's own callback errors, such
 * as `state_mismatch`, or anything typed into the address bar).
 */
export function signInPageMessage(error: string | null, locale?: string): string | null {
  if (!error) return null;
  return authErrorMessage(isAuthErrorCode(error) ? error : "OAUTH_FAILED", {}, locale);
}
