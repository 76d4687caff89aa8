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
  "chrome.menu": "Menu",
  "chrome.footerNav": "Footer",
  "chrome.localeSwitcher": "Language",
  "chrome.signIn": "Sign in",
  "chrome.account": "Account",
  "chrome.signOut": "Sign out",
  "chrome.search": "Search",
  "chrome.searchLabel": "Search the site",

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
  "signIn.newConfirmationMail": "Ask for a new confirmation mail",

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

  // Change of email (issue 15, point 2): the /account form and the /confirm-email-change page.
  "account.changeEmail": "Change your email address",
  "account.changeEmailIntro":
    "We send a link to the new address; your address changes once it is opened and confirmed, within an hour. " +
    "Enter your password. No password (you sign in with a provider)? Leave it empty: a sign-in of the last " +
    "5 minutes counts.",
  "account.newEmail": "New email address",
  "account.changeEmailPassword": "Password (to confirm it is you)",
  "account.changeEmailSubmit": "Send the confirmation link",
  "account.changeEmailPending": "Sending…",
  "account.emailChangeRequested":
    "Check the new address's inbox: if it can be used, we have sent it a link to confirm the change. Your email " +
    "address stays as it is until then (the link works for an hour).",
  "account.emailChanged": "Your email address has been changed.",
  "confirmEmailChange.title": "Confirm your new email address",
  "confirmEmailChange.intro":
    "Press the button to make this the email address of your account. Every other session of the account ends.",
  "confirmEmailChange.submit": "Confirm the new address",
  "confirmEmailChange.pending": "Confirming…",
  "confirmEmailChange.doneTitle": "Email address changed",
  "confirmEmailChange.done": "Your account's email address is now {email}. Sign in with it from now on.",
  "confirmEmailChange.failedTitle": "This link did not work",
  "confirmEmailChange.incomplete": "This link is incomplete. Ask for a new one on your account page.",
  "confirmEmailChange.toAccount": "Your account",
  "confirmEmailChange.signIn": "Sign in",

  // Sign out.
  "signOut.title": "Sign out",
  "signOut.submit": "Sign out",

  // The bot check's honeypot (docs/decisions/0021): read only by a screen reader that ignores aria-hidden.
  "botCheck.leaveEmpty": "Leave this field empty",

  // Two-factor authentication (issue 15, point 4): the sign-in's second step, and the settings.
  "twoFactorSignIn.title": "Enter your code",
  "twoFactorSignIn.intro":
    "Your account has two-factor authentication on. Enter the 6-digit code from your authenticator app, or one " +
    "of your recovery codes.",
  "twoFactorSignIn.submit": "Verify",
  "twoFactorSignIn.pending": "Checking…",
  "twoFactorSignIn.signInAgain": "Sign in again",
  "twoFactor.codeLabel": "Code",
  "input.codeMissing": "Enter the code.",
  "input.codeTooLong": "This code is too long: enter the 6 digits, or a recovery code.",
  "twoFactor.title": "Two-factor authentication",
  "twoFactor.on": "Two-factor authentication is on. Recovery codes left: {count}.",
  "twoFactor.off":
    "Two-factor authentication is off. With it on, signing in asks for a code from an authenticator app after " +
    "your password.",
  "twoFactor.unknown": "The state of two-factor authentication cannot be read right now. Please try again in a moment.",
  "twoFactor.setupIntro": "To turn it on, enter your password; then scan a QR code with your authenticator app.",
  "twoFactor.setupSubmit": "Set up two-factor authentication",
  "twoFactor.setupPending": "Preparing…",
  "twoFactor.scanTitle": "Scan the QR code",
  "twoFactor.scan": "Scan this QR code with your authenticator app, then enter the 6-digit code it shows.",
  "twoFactor.qrLabel": "QR code for your authenticator app",
  "twoFactor.manual": "Cannot scan it? Enter this key in the app instead:",
  "twoFactor.enableCode": "Code from your app",
  "twoFactor.enableSubmit": "Turn on",
  "twoFactor.enablePending": "Turning on…",
  "twoFactor.enableAgain": "Lost the QR code? Set it up again with your password.",
  "twoFactor.enabled": "Two-factor authentication is now on. Every other session of your account has been signed out.",
  "twoFactor.codesTitle": "Your recovery codes",
  "twoFactor.codesIntro":
    "Save these codes somewhere safe now: they will not be shown again. Each one signs you in once, should you " +
    "lose your authenticator app.",
  "twoFactor.newCodesTitle": "New recovery codes",
  "twoFactor.newCodesIntro": "Makes 10 new recovery codes; the old ones stop working. Enter a code from your app.",
  "twoFactor.newCodesSubmit": "Make new recovery codes",
  "twoFactor.newCodesPending": "Making…",
  "twoFactor.newCodesMade": "Your new recovery codes are ready; the old ones no longer work.",
  "twoFactor.disableTitle": "Turn off two-factor authentication",
  "twoFactor.disableIntro": "Enter your password and a code from your app (or a recovery code).",
  "twoFactor.disableSubmit": "Turn off",
  "twoFactor.disablePending": "Turning off…",
  "twoFactor.disabled": "Two-factor authentication is now off.",
  "twoFactor.backToAccount": "Back to your account",
  "account.twoFactorIntro": "Ask for a code from an authenticator app after the password when you sign in.",
  "account.twoFactorLink": "Manage two-factor authentication",

  // Confirm email (the confirmation mail's link lands here).
  "confirmEmail.title": "Confirm your email address",
  "confirmEmail.confirmedTitle": "Email address confirmed",
  "confirmEmail.confirmed": "Thank you: your email address is confirmed. You can sign in now.",
  "confirmEmail.resentTitle": "Check your inbox",
  "confirmEmail.resent":
    "If an account for {email} is waiting for its confirmation, we have sent it a new link. It can take a few " +
    "minutes to arrive.",
  "confirmEmail.intro": "Confirm that this email address is yours to finish creating your account.",
  "confirmEmail.submit": "Confirm my email address",
  "confirmEmail.pending": "Confirming…",
  "confirmEmail.failedTitle": "This link did not work",
  "confirmEmail.askForNew": "No confirmation mail, or the link did not work? Ask for a new one.",
  "confirmEmail.resendSubmit": "Send a new confirmation link",
  "confirmEmail.resendPending": "Sending…",

  // What the input schemas say next to a field (app/lib/auth/schemas.ts: their messages are these keys).
  "input.fieldsMissing": "Send the form's fields.",
  "input.emailMissing": "Enter your email address.",
  "input.emailTooLong": "This email address is too long.",
  "input.emailInvalid": "Enter a valid email address, like name@example.com.",
  "input.passwordMissing": "Choose a password.",
  "input.passwordTooShort": "Use at least 8 characters.",
  "input.passwordTooLong": "Use at most 72 bytes (about 72 characters).",
  "input.currentPasswordMissing": "Enter your password.",
  "input.currentPasswordTooLong": "This password is too long.",
  "input.repeatPassword": "Repeat the new password.",
  "input.passwordsDiffer": "The two passwords do not match.",
  "input.rememberMe": "Remember me is yes or no.",
  "input.resetLinkIncomplete": "The reset link is incomplete.",
  "input.confirmationLinkIncomplete": "The confirmation link is incomplete.",
  "input.nameMissing": "Enter a name.",
  "input.nameTooShort": "Use at least 3 characters.",
  "input.nameTooLong": "Use at most 50 characters.",
  "input.nameCharacters": "Use letters, digits, spaces or punctuation.",
  "input.nameWithAt": "A name cannot contain @.",

  // Content forms (a form section on a page: app/lib/forms/, docs/forms.md).
  "form.submit": "Send",
  "form.sent": "Thank you. Your message has been sent.",
  "form.required": "(required)",
  "form.choose": "Please choose",
  "form.error.required": "Please fill in this field.",
  "form.error.email": "Please enter an email address such as name@example.com.",
  "form.error.tooLong": "Please use at most {max} characters.",
  "form.error.choice": "Please choose one of the options.",
  "form.error.consent": "Please agree to this to send the form.",
  "form.error.summary": "The form could not be sent. Please correct the fields marked below.",
  "form.error.cmsDown": "The form could not be sent just now. Nothing was saved; please try again in a few minutes.",
  "form.error.cmsSlow":
    "We could not confirm that your message arrived: it may have been saved. If you hear nothing from us, please send it again later.",
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Readonly<Record<MessageKey, string>>;

const de: Messages = {
  "chrome.skipLink": "Zum Inhalt springen",
  "chrome.mainNav": "Hauptmenü",
  "chrome.menu": "Menü",
  "chrome.footerNav": "Fußzeile",
  "chrome.localeSwitcher": "Sprache",
  "chrome.signIn": "Anmelden",
  "chrome.account": "Konto",
  "chrome.signOut": "Abmelden",
  "chrome.search": "Suchen",
  "chrome.searchLabel": "Website durchsuchen",

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
  "signIn.newConfirmationMail": "Neue Bestätigungs-E-Mail anfordern",

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

  // Change of email.
  "account.changeEmail": "E-Mail-Adresse ändern",
  "account.changeEmailIntro":
    "Wir senden einen Link an die neue Adresse; Ihre Adresse ändert sich, sobald er geöffnet und bestätigt wird, " +
    "innerhalb einer Stunde. Geben Sie Ihr Passwort ein. Kein Passwort (Sie melden sich über einen Anbieter an)? " +
    "Lassen Sie das Feld leer: Eine Anmeldung in den letzten 5 Minuten genügt.",
  "account.newEmail": "Neue E-Mail-Adresse",
  "account.changeEmailPassword": "Passwort (zur Bestätigung, dass Sie es sind)",
  "account.changeEmailSubmit": "Bestätigungslink senden",
  "account.changeEmailPending": "Wird gesendet…",
  "account.emailChangeRequested":
    "Sehen Sie im Postfach der neuen Adresse nach: Falls sie verwendet werden kann, haben wir ihr einen Link zur " +
    "Bestätigung gesendet. Bis dahin bleibt Ihre E-Mail-Adresse, wie sie ist (der Link gilt eine Stunde).",
  "account.emailChanged": "Ihre E-Mail-Adresse wurde geändert.",
  "confirmEmailChange.title": "Neue E-Mail-Adresse bestätigen",
  "confirmEmailChange.intro":
    "Drücken Sie den Knopf, um dies zur E-Mail-Adresse Ihres Kontos zu machen. Jede andere Sitzung des Kontos endet.",
  "confirmEmailChange.submit": "Neue Adresse bestätigen",
  "confirmEmailChange.pending": "Wird bestätigt…",
  "confirmEmailChange.doneTitle": "E-Mail-Adresse geändert",
  "confirmEmailChange.done": "Die E-Mail-Adresse Ihres Kontos ist jetzt {email}. Melden Sie sich ab jetzt damit an.",
  "confirmEmailChange.failedTitle": "Dieser Link hat nicht funktioniert",
  "confirmEmailChange.incomplete": "Dieser Link ist unvollständig. Fordern Sie auf Ihrer Kontoseite einen neuen an.",
  "confirmEmailChange.toAccount": "Ihr Konto",
  "confirmEmailChange.signIn": "Anmelden",

  "signOut.title": "Abmelden",
  "signOut.submit": "Abmelden",

  // The bot check (docs/decisions/0021).
  "botCheck.leaveEmpty": "Lassen Sie dieses Feld leer",

  // Two-factor authentication (issue 15, point 4).
  "twoFactorSignIn.title": "Code eingeben",
  "twoFactorSignIn.intro":
    "Für Ihr Konto ist die Zwei-Faktor-Authentifizierung eingeschaltet. Geben Sie den 6-stelligen Code aus Ihrer " +
    "Authenticator-App oder einen Ihrer Wiederherstellungscodes ein.",
  "twoFactorSignIn.submit": "Bestätigen",
  "twoFactorSignIn.pending": "Wird geprüft…",
  "twoFactorSignIn.signInAgain": "Erneut anmelden",
  "twoFactor.codeLabel": "Bestätigungscode",
  "input.codeMissing": "Geben Sie den Code ein.",
  "input.codeTooLong": "Dieser Code ist zu lang: Geben Sie die 6 Ziffern oder einen Wiederherstellungscode ein.",
  "twoFactor.title": "Zwei-Faktor-Authentifizierung",
  "twoFactor.on": "Die Zwei-Faktor-Authentifizierung ist eingeschaltet. Verbleibende Wiederherstellungscodes: {count}.",
  "twoFactor.off":
    "Die Zwei-Faktor-Authentifizierung ist ausgeschaltet. Eingeschaltet fragt die Anmeldung nach dem Passwort " +
    "nach einem Code aus einer Authenticator-App.",
  "twoFactor.unknown":
    "Der Stand der Zwei-Faktor-Authentifizierung kann gerade nicht gelesen werden. Bitte versuchen Sie es gleich " +
    "noch einmal.",
  "twoFactor.setupIntro":
    "Zum Einschalten geben Sie Ihr Passwort ein; dann scannen Sie einen QR-Code mit Ihrer Authenticator-App.",
  "twoFactor.setupSubmit": "Zwei-Faktor-Authentifizierung einrichten",
  "twoFactor.setupPending": "Wird vorbereitet…",
  "twoFactor.scanTitle": "QR-Code scannen",
  "twoFactor.scan":
    "Scannen Sie diesen QR-Code mit Ihrer Authenticator-App und geben Sie dann den 6-stelligen Code ein.",
  "twoFactor.qrLabel": "QR-Code für Ihre Authenticator-App",
  "twoFactor.manual": "Scannen klappt nicht? Geben Sie stattdessen diesen Schlüssel in der App ein:",
  "twoFactor.enableCode": "Code aus Ihrer App",
  "twoFactor.enableSubmit": "Einschalten",
  "twoFactor.enablePending": "Wird eingeschaltet…",
  "twoFactor.enableAgain": "QR-Code verloren? Richten Sie es mit Ihrem Passwort neu ein.",
  "twoFactor.enabled":
    "Die Zwei-Faktor-Authentifizierung ist jetzt eingeschaltet. Alle anderen Sitzungen Ihres Kontos wurden beendet.",
  "twoFactor.codesTitle": "Ihre Wiederherstellungscodes",
  "twoFactor.codesIntro":
    "Bewahren Sie diese Codes jetzt sicher auf: Sie werden nicht noch einmal angezeigt. Jeder meldet Sie einmal " +
    "an, falls Sie Ihre Authenticator-App verlieren.",
  "twoFactor.newCodesTitle": "Neue Wiederherstellungscodes",
  "twoFactor.newCodesIntro":
    "Erzeugt 10 neue Wiederherstellungscodes; die alten gelten dann nicht mehr. Geben Sie einen Code aus Ihrer App ein.",
  "twoFactor.newCodesSubmit": "Neue Wiederherstellungscodes erzeugen",
  "twoFactor.newCodesPending": "Wird erzeugt…",
  "twoFactor.newCodesMade": "Ihre neuen Wiederherstellungscodes sind bereit; die alten gelten nicht mehr.",
  "twoFactor.disableTitle": "Zwei-Faktor-Authentifizierung ausschalten",
  "twoFactor.disableIntro":
    "Geben Sie Ihr Passwort und einen Code aus Ihrer App (oder einen Wiederherstellungscode) ein.",
  "twoFactor.disableSubmit": "Ausschalten",
  "twoFactor.disablePending": "Wird ausgeschaltet…",
  "twoFactor.disabled": "Die Zwei-Faktor-Authentifizierung ist jetzt ausgeschaltet.",
  "twoFactor.backToAccount": "Zurück zu Ihrem Konto",
  "account.twoFactorIntro": "Bei der Anmeldung nach dem Passwort einen Code aus einer Authenticator-App verlangen.",
  "account.twoFactorLink": "Zwei-Faktor-Authentifizierung verwalten",

  "confirmEmail.title": "Bestätigen Sie Ihre E-Mail-Adresse",
  "confirmEmail.confirmedTitle": "E-Mail-Adresse bestätigt",
  "confirmEmail.confirmed": "Vielen Dank: Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.",
  "confirmEmail.resentTitle": "Sehen Sie in Ihr Postfach",
  "confirmEmail.resent":
    "Falls ein Konto für {email} auf seine Bestätigung wartet, haben wir ihm einen neuen Link gesendet. Es kann " +
    "einige Minuten dauern, bis er ankommt.",
  "confirmEmail.intro": "Bestätigen Sie, dass diese E-Mail-Adresse Ihnen gehört, um Ihr Konto fertig anzulegen.",
  "confirmEmail.submit": "Meine E-Mail-Adresse bestätigen",
  "confirmEmail.pending": "Wird bestätigt…",
  "confirmEmail.failedTitle": "Dieser Link hat nicht funktioniert",
  "confirmEmail.askForNew":
    "Keine Bestätigungs-E-Mail, oder der Link hat nicht funktioniert? Fordern Sie einen neuen an.",
  "confirmEmail.resendSubmit": "Neuen Bestätigungslink senden",
  "confirmEmail.resendPending": "Wird gesendet…",

  "input.fieldsMissing": "Senden Sie die Felder des Formulars.",
  "input.emailMissing": "Geben Sie Ihre E-Mail-Adresse ein.",
  "input.emailTooLong": "Diese E-Mail-Adresse ist zu lang.",
  "input.emailInvalid": "Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.",
  "input.passwordMissing": "Wählen Sie ein Passwort.",
  "input.passwordTooShort": "Verwenden Sie mindestens 8 Zeichen.",
  "input.passwordTooLong": "Verwenden Sie höchstens 72 Bytes (etwa 72 Zeichen).",
  "input.currentPasswordMissing": "Geben Sie Ihr Passwort ein.",
  "input.currentPasswordTooLong": "Dieses Passwort ist zu lang.",
  "input.repeatPassword": "Wiederholen Sie das neue Passwort.",
  "input.passwordsDiffer": "Die beiden Passwörter stimmen nicht überein.",
  "input.rememberMe": "„Angemeldet bleiben“ ist ja oder nein.",
  "input.resetLinkIncomplete": "Der Link zum Zurücksetzen ist unvollständig.",
  "input.confirmationLinkIncomplete": "Der Bestätigungslink ist unvollständig.",
  "input.nameMissing": "Geben Sie einen Namen ein.",
  "input.nameTooShort": "Verwenden Sie mindestens 3 Zeichen.",
  "input.nameTooLong": "Verwenden Sie höchstens 50 Zeichen.",
  "input.nameCharacters": "Verwenden Sie Buchstaben, Ziffern, Leerzeichen oder Satzzeichen.",
  "input.nameWithAt": "Ein Name kann kein @ enthalten.",

  "form.submit": "Senden",
  "form.sent": "Vielen Dank. Ihre Nachricht wurde gesendet.",
  "form.required": "(Pflichtfeld)",
  "form.choose": "Bitte wählen",
  "form.error.required": "Bitte füllen Sie dieses Feld aus.",
  "form.error.email": "Bitte geben Sie eine E-Mail-Adresse wie name@example.com ein.",
  "form.error.tooLong": "Bitte verwenden Sie höchstens {max} Zeichen.",
  "form.error.choice": "Bitte wählen Sie eine der Möglichkeiten.",
  "form.error.consent": "Bitte stimmen Sie zu, um das Formular zu senden.",
  "form.error.summary": "Das Formular konnte nicht gesendet werden. Bitte korrigieren Sie die markierten Felder.",
  "form.error.cmsDown":
    "Das Formular konnte gerade nicht gesendet werden. Es wurde nichts gespeichert; bitte versuchen Sie es in einigen Minuten erneut.",
  "form.error.cmsSlow":
    "Wir konnten nicht bestätigen, dass Ihre Nachricht angekommen ist: Sie wurde vielleicht gespeichert. Wenn Sie nichts von uns hören, senden Sie sie bitte später erneut.",
};

/** The words per locale. The locales the seed configures (en, de) must all be here. */
export const MESSAGES: Readonly<Record<string, Messages>> = { en, de };

/** Whose words a locale without its own gets. */
export const DEFAULT_MESSAGES_LOCALE = "en";

/** Whether a string is one of the table's keys (an input schema's message is one: app/lib/auth/schemas.ts). */
export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(en, value);
}

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
  // Remembered: every page's locale switcher asks for each configured locale, and building an
  // Intl.DisplayNames was among a render's largest single costs (bench/README.md, "Uncached render").
  let name = languageNames.get(locale);
  if (name === undefined) {
    name = displayedLanguageName(locale);
    // Configured locales are few; the bound keeps any other caller from growing it without end.
    if (languageNames.size < LANGUAGE_NAMES_MAX) languageNames.set(locale, name);
  }
  return name;
}

const LANGUAGE_NAMES_MAX = 100;
const languageNames = new Map<string, string>();

function displayedLanguageName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale);
    if (!name || name === locale) return locale;
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    return locale;
  }
}
