// Where the cashier window may go: nowhere but our own origin. The page is a single-page app, so a
// navigation elsewhere (a link, a redirect, a script setting location) is either a bug or an attack.
import { isAppUrl } from './app-origin';

/** For `will-navigate`, `will-redirect` and `will-frame-navigate`: true means let it happen. */
export function isNavigationAllowed(targetUrl: string): boolean {
  return isAppUrl(targetUrl);
}

/** For `setWindowOpenHandler`: no second window, no popup, no external browser from the page. */
export const WINDOW_OPEN_RESPONSE = { action: 'deny' } as const;

/**
 * For the session's permission request and check handlers. The till needs no camera, microphone,
 * geolocation, notifications, clipboard read, MIDI, HID, serial or USB from the page; the shell
 * decides fullscreen/kiosk itself. Every request is refused.
 */
export function isPermissionGranted(_permission: string): boolean {
  return false;
}

/**
 * For the core's OAuth step, which opens the consent page in the system browser (RFC 8252). Only web
 * pages go to shell.openExternal: https anywhere, http only to this machine (the embedded sandbox). Other
 * schemes (file:, smb:, ms-msdt:, custom handlers) are how openExternal turns into code execution.
 */
export function isExternalUrlAllowed(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
}
