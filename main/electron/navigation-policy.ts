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
