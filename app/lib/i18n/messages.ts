/**
 * The site's own words (the chrome, the auth pages), per locale. The CMS's words (pages,
 * navbar, footer, Error page) come from the CMS; the auth error messages live beside their
 * codes in app/lib/auth/error-codes.ts. Pure, safe for the browser.
 *
 * English is the reference: its keys are the keys, and every other locale must give them all
 * (messages.test.ts). A locale the site has no words for gets the default locale's words.
 */

const en = {
  // The chrome.
  "chrome.skipLink": "Skip to the content",
  "chrome.mainNav": "Main",
  "chrome.footerNav": "Footer",
  "chrome.localeSwitcher": "Language",
  "chrome.signIn": "Sign in",
  "chrome.account": "Account",
  "chrome.signOut": "Sign out",

  // Fields shared by the auth forms.
  "field.email": "Email",
  "field.password": "Password",
  "field.newPassword": "New password",
  "field.repeatPassword": "Repeat the password",
  "field.repeatNewPassword": "Repeat the new password",
  "field.currentPassword": "Current password",
  "field.passwordHint": "At least 8 characters.",

  // Sign in.
  "signIn.title": "Sign in",
  "signIn.submit": "Sign in",
  "signIn.pending": "Signing in…",
  "signIn.forgotPassword": "Forgot your password?",
  "signIn.noAccount": "No account yet?",
  "signIn.register": "Register",
  "signIn.withProvider": "Sign in with {provider}",
  "signIn.rememberMe": "Remember me",

  // Register.
  "register.title": "Create an account",
  "register.submit": "Create account",
  "register.pending": "Creating your account…",
  "register.alreadyRegistered": "Already registered?",
  "register.doneTitle": "Thank you",
  "register.done":
    "Thank you. If this email address was not registered yet, your account is ready: sign in with it. " +
    "If it was, sign in with your password, or reset it.",
  "register.checkInbox":
    "Thank you. Check your inbox: if this email address was not registered yet, we have sent it a link to confirm " +
    "it. If it was, sign in with your password, or reset it.",

  // Forgot password.
  "forgotPassword.title": "Forgot your password?",
  "forgotPassword.intro": "Enter your email address and we will send you a link to choose a new password.",
  "forgotPassword.submit": "Send the link",
  "forgotPassword.pending": "Sending…",
  "forgotPassword.backToSignIn": "Back to sign in",
  "forgotPassword.sentTitle": "Check your email",
  "forgotPassword.sent": "If an account exists for {email}, we have sent it a link to reset the password.",

  // Reset password.
  "resetPassword.incompleteTitle": "Reset your password",
  "resetPassword.incomplete": "This link is incomplete.",
  "resetPassword.askForNewOne": "Ask for a new one",
  "resetPassword.title": "Choose a new password",
  "resetPassword.submit": "Save the new password",
  "resetPassword.pending": "Saving…",

  // Account.
  "account.title": "Your account",
  "account.name": "Name",
  "account.email": "Email",
  "account.signedInWith": "Signed in with",
  "account.emailAndPassword": "email and password",
  "account.changePassword": "Change your password",
  "account.submit": "Change password",
  "account.pending": "Changing…",
  "account.passwordChanged": "Your password has been changed.",
  "account.signOutEverywhere": "Sign out everywhere",
  "account.changeName": "Change your name",
  "account.delete": "Delete your account",
  "account.deleteIntro":
    "This deletes your account and ends every session; it cannot be undone. Enter your password. " +
    "No password (you sign in with a provider)? Leave it empty: a sign-in of the last 5 minutes counts.",
  "account.deleteSubmit": "Delete my account",
  "account.deletePending": "Deleting…",
  "account.deletePassword": "Your password",
  "account.changeNameSubmit": "Change name",
  "account.nameChanged": "Your name has been changed.",
  "field.name": "Name",
  "account.signOutEverywhereIntro":
    "Ends every session of your account, on every device and browser, this one included.",
  "account.signOutEverywhereSubmit": "Sign out everywhere",
  "account.signOutEverywherePending": "Signing out…",

  // Sign out.
  "signOut.title": "Sign out",
  "signOut.submit": "Sign out",
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Readonly<Record<MessageKey, string>>;

const de: Messages = {
  "chrome.skipLink": "Zum Inhalt springen",
  "chrome.mainNav": "Hauptmenü",
  "chrome.footerNav": "Fußzeile",
  "chrome.localeSwitcher": "Sprache",
  "chrome.signIn": "Anmelden",
  "chrome.account": "Konto",
  "chrome.signOut": "Abmelden",

  "field.email": "E-Mail",
  "field.password": "Passwort",
  "field.newPassword": "Neues Passwort",
  "field.repeatPassword": "Passwort wiederholen",
  "field.repeatNewPassword": "Neues Passwort wiederholen",
  "field.currentPassword": "Aktuelles Passwort",
  "field.passwordHint": "Mindestens 8 Zeichen.",

  "signIn.title": "Anmelden",
  "signIn.submit": "Anmelden",
  "signIn.pending": "Anmeldung läuft…",
  "signIn.forgotPassword": "Passwort vergessen?",
  "signIn.noAccount": "Noch kein Konto?",
  "signIn.register": "Registrieren",
  "signIn.withProvider": "Mit {provider} anmelden",
  "signIn.rememberMe": "Angemeldet bleiben",

  "register.title": "Konto anlegen",
  "register.submit": "Konto anlegen",
  "register.pending": "Ihr Konto wird angelegt…",
  "register.alreadyRegistered": "Schon registriert?",
  "register.doneTitle": "Vielen Dank",
  "register.done":
    "Vielen Dank. War diese E-Mail-Adresse noch nicht registriert, ist Ihr Konto bereit: Melden Sie sich damit an. " +
    "War sie es schon, melden Sie sich mit Ihrem Passwort an oder setzen Sie es zurück.",
  "register.checkInbox":
    "Vielen Dank. Sehen Sie in Ihrem Posteingang nach: War diese E-Mail-Adresse noch nicht registriert, haben wir " +
    "ihr einen Link zur Bestätigung geschickt. War sie es schon, melden Sie sich mit Ihrem Passwort an oder setzen " +
    "Sie es zurück.",

  "forgotPassword.title": "Passwort vergessen?",
  "forgotPassword.intro":
    "Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort wählen.",
  "forgotPassword.submit": "Link senden",
  "forgotPassword.pending": "Wird gesendet…",
  "forgotPassword.backToSignIn": "Zurück zur Anmeldung",
  "forgotPassword.sentTitle": "Sehen Sie in Ihr Postfach",
  "forgotPassword.sent":
    "Falls es ein Konto für {email} gibt, haben wir ihm einen Link zum Zurücksetzen des Passworts gesendet.",

  "resetPassword.incompleteTitle": "Passwort zurücksetzen",
  "resetPassword.incomplete": "Dieser Link ist unvollständig.",
  "resetPassword.askForNewOne": "Fordern Sie einen neuen an",
  "resetPassword.title": "Neues Passwort wählen",
  "resetPassword.submit": "Neues Passwort speichern",
  "resetPassword.pending": "Wird gespeichert…",

  "account.title": "Ihr Konto",
  "account.name": "Name",
  "account.email": "E-Mail",
  "account.signedInWith": "Angemeldet mit",
  "account.emailAndPassword": "E-Mail und Passwort",
  "account.changePassword": "Passwort ändern",
  "account.submit": "Passwort ändern",
  "account.pending": "Wird geändert…",
  "account.passwordChanged": "Ihr Passwort wurde geändert.",
  "account.signOutEverywhere": "Überall abmelden",
  "account.changeName": "Namen ändern",
  "account.delete": "Konto löschen",
  "account.deleteIntro":
    "Dies löscht Ihr Konto und beendet jede Sitzung; es lässt sich nicht rückgängig machen. Geben Sie Ihr Passwort " +
    "ein. Kein Passwort (Sie melden sich über einen Anbieter an)? Lassen Sie das Feld leer: Eine Anmeldung in den " +
    "letzten 5 Minuten genügt.",
  "account.deleteSubmit": "Mein Konto löschen",
  "account.deletePending": "Wird gelöscht…",
  "account.deletePassword": "Ihr Passwort",
  "account.changeNameSubmit": "Namen ändern",
  "account.nameChanged": "Ihr Name wurde geändert.",
  "field.name": "Name",
  "account.signOutEverywhereIntro":
    "Beendet jede Sitzung Ihres Kontos, auf jedem Gerät und in jedem Browser, auch diese.",
  "account.signOutEverywhereSubmit": "Überall abmelden",
  "account.signOutEverywherePending": "Abmeldung läuft…",

  "signOut.title": "Abmelden",
  "signOut.submit": "Abmelden",
};

/** The words per locale. The locales the seed configures (en, de) must all be here. */
export const MESSAGES: Readonly<Record<string, Messages>> = { en, de };

/** Whose words a locale without its own gets. */
export const DEFAULT_MESSAGES_LOCALE = "en";

/** The message `key` in `locale` (else in English), with `{name}` blanks filled from `params`. */
export function t(locale: string, key: MessageKey, params: Readonly<Record<string, string | number>> = {}): string {
  const messages = (Object.hasOwn(MESSAGES, locale) ? MESSAGES[locale] : undefined) ?? en;
  return messages[key].replace(/\{(\w+)\}/g, (blank, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : blank,
  );
}

/**
 * A locale's name in its own language ("English", "Deutsch"), from the runtime's CLDR data
 * (Intl.DisplayNames) rather than a hand-kept list; the code itself when the runtime has none.
 */
export function languageName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale);
    if (!name || name === locale) return locale;
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    return locale;
  }
}
