// A file the page hands to the browser to save (the Z report's CSV): a Blob behind a temporary
// <a download> link, clicked once. No network: the text is already in the page.

/** How long the Blob URL stays valid after the click: the save may start after a dialog. */
const REVOKE_AFTER_MS = 60_000;

/**
 * Saves `text` as `filename`. A CSV gets a byte order mark first so a spreadsheet opened on it
 * reads UTF-8 ("Café latte", not "CafÃ© latte").
 */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const body = type.startsWith('text/csv') && !text.startsWith('\uFEFF') ? `\uFEFF${text}` : text;
  const url = URL.createObjectURL(new Blob([body], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
