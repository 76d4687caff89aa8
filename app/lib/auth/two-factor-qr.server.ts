import QRCode from "qrcode";

/**
 * The otpauth URI of a two-factor set-up as a QR code, an SVG drawn on the server (the `qrcode`
 * package), so the page shows it with JavaScript off and no image request carries the secret.
 * Black on white with a quiet zone, as authenticator apps' scanners expect.
 */
export function qrCodeSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2, width: 200 });
}
