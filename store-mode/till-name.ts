// A till's name as people read it ("Bar", "Front counter"): carried in its certificate's OU, shown in
// diagnostics and the sync panel. Letters, digits, spaces and a few signs only, so it prints plainly in
// a certificate name, a log line and a sentence.
export const TILL_NAME = /^[\p{L}\p{N}][\p{L}\p{N} '&()._-]{0,39}$/u;

export const TILL_NAME_RULE = 'must be 1 to 40 letters, digits, spaces or the signs \' & ( ) . _ -, starting with a letter or digit';

export function isTillName(text: string): boolean {
  return TILL_NAME.test(text) && text === text.trim();
}
