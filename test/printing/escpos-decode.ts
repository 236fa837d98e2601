// Reads ESC/POS bytes back as a person would read the paper: the printed text (commands stripped),
// the cuts (GS V, ESC i/m), the drawer kicks (ESC p) and the status queries (DLE EOT) in them.
// Command lengths follow the Epson ESC/POS reference for what receiptline and the printing room send.

export interface DecodedEscPos {
  /** The printed text, one line per LF; column positioning (ESC $, ESC \) shows as a space. */
  text: string;
  cuts: number;
  drawerKicks: { pin: 2 | 5; onMs: number; offMs: number }[];
  /** The n of each DLE EOT n. */
  statusQueries: number[];
}

/**
 * The upper halves (0x80..0xff) of the code pages receiptline's 'multilingual' encoding switches
 * to with ESC t n (n = 0 cp437, 16 cp1252, 17 cp866, 18 cp852, 19 cp858), as receiptline lists them.
 */
const CODE_PAGES: Record<number, string> = {
  0: 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■ ',
  16: '€�‚ƒ„…†‡ˆ‰Š‹Œ�Ž��‘’“”•–—˜™š›œ�žŸ ¡¢£¤¥¦§¨©ª«¬­®¯°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ',
  17: 'АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмноп░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀рстуфхцчшщъыьэюяЁёЄєЇїЎў°∙·√№¤■ ',
  18: 'ÇüéâäůćçłëŐőîŹÄĆÉĹĺôöĽľŚśÖÜŤťŁ×čáíóúĄąŽžĘę¬źČş«»░▒▓│┤ÁÂĚŞ╣║╗╝Żż┐└┴┬├─┼Ăă╚╔╩╦╠═╬¤đĐĎËďŇÍÎě┘┌█▄ŢŮ▀ÓßÔŃńňŠšŔÚŕŰýÝţ´­˝˛ˇ˘§÷¸°¨˙űŘř■ ',
  19: 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈ€ÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´­±‗¾¶§÷¸°¨·¹³²■ ',
};

const ESC_ONE_ARG = new Set([' ', '!', '-', '3', 'E', 'G', 'M', 'R', 'U', 'V', 'a', 'd', 'e', 'J', 'K', 't', '{', 'r', 'T', '=', 'O']);
const GS_ONE_ARG = new Set(['!', 'B', 'a', 'b', 'f', 'h', 'H', 'r', 'w', 'I', 'E', '/', 'T', 'j']);
const GS_TWO_ARGS = new Set(['L', 'W', '$', '\\', 'P']);

export function decodeEscPos(input: Uint8Array): DecodedEscPos {
  const bytes = Buffer.from(input);
  const out: DecodedEscPos = { text: '', cuts: 0, drawerKicks: [], statusQueries: [] };
  let codePage = 0;
  let i = 0;
  const at = (k: number) => bytes[k] ?? 0;
  while (i < bytes.length) {
    const b = at(i);
    if (b === 0x0a) {
      out.text += '\n';
      i += 1;
    } else if (b === 0x10) {
      const c = at(i + 1);
      if (c === 0x04 || c === 0x05) {
        if (c === 0x04) out.statusQueries.push(at(i + 2));
        i += 3;
      } else if (c === 0x14) i += 5;
      else i += 2;
    } else if (b === 0x1b) {
      const c = String.fromCharCode(at(i + 1));
      if (c === 'p') {
        out.drawerKicks.push({ pin: at(i + 2) % 2 === 0 ? 2 : 5, onMs: at(i + 3) * 2, offMs: at(i + 4) * 2 });
        i += 5;
      } else if (c === '$' || c === '\\') {
        // Moving to the next column: a space between two columns' text.
        const line = out.text.slice(out.text.lastIndexOf('\n') + 1);
        if (line !== '' && !line.endsWith(' ')) out.text += ' ';
        i += 4;
      } else if (c === 't') {
        codePage = at(i + 2);
        i += 3;
      } else if (c === 'i' || c === 'm') {
        out.cuts += 1;
        i += 2;
      } else if (c === 'c') i += 4;
      else if (c === 'D') {
        i += 2;
        while (i < bytes.length && at(i) !== 0) i += 1;
        i += 1;
      } else if (c === '*') {
        const n = at(i + 3) + at(i + 4) * 256;
        i += 5 + (at(i + 2) >= 32 ? 3 * n : n);
      } else if (c === 'W') i += 10;
      else if (c === '(') i += 5 + at(i + 3) + at(i + 4) * 256;
      else if (ESC_ONE_ARG.has(c)) i += 3;
      else i += 2;
    } else if (b === 0x1d) {
      const c = String.fromCharCode(at(i + 1));
      if (c === 'V') {
        out.cuts += 1;
        const m = at(i + 2);
        i += [0, 1, 48, 49].includes(m) ? 3 : 4;
      } else if (c === '(') i += 5 + at(i + 3) + at(i + 4) * 256;
      else if (c === '8') i += 7 + at(i + 3) + at(i + 4) * 256 + at(i + 5) * 65536 + at(i + 6) * 16777216;
      else if (c === 'v') i += 8 + (at(i + 4) + at(i + 5) * 256) * (at(i + 6) + at(i + 7) * 256);
      else if (c === '*') i += 4 + at(i + 2) * at(i + 3) * 8;
      else if (c === 'k') {
        const m = at(i + 2);
        if (m <= 6) {
          i += 3;
          while (i < bytes.length && at(i) !== 0) i += 1;
          i += 1;
        } else i += 4 + at(i + 3);
      } else if (GS_TWO_ARGS.has(c)) i += 4;
      else if (GS_ONE_ARG.has(c)) i += 3;
      else i += 2;
    } else if (b === 0x1c) {
      const c = String.fromCharCode(at(i + 1));
      if (c === '(') i += 5 + at(i + 3) + at(i + 4) * 256;
      else if (c === 'S' || c === 'p') i += 4;
      else if (c === 'C' || c === '-' || c === 'W' || c === '!') i += 3;
      else i += 2;
    } else if (b < 0x20 || b === 0x7f) {
      i += 1;
    } else {
      // Code page 1 (receiptline's rules): its box-drawing characters read as lines. A byte of a
      // code page not listed reads as "?": what a person would find unreadable.
      const upper = CODE_PAGES[codePage]?.[b - 0x80];
      out.text += b < 0x80 ? String.fromCharCode(b) : codePage === 1 && b >= 0x8f && b <= 0x9f ? '-' : upper && upper !== '\ufffd' ? upper : '?';
      i += 1;
    }
  }
  return out;
}

/** Text with runs of spaces folded and lines trimmed: easier to search for "2 x Burger". */
export function normalizedText(decoded: DecodedEscPos | string): string {
  const text = typeof decoded === 'string' ? decoded : decoded.text;
  return text
    .split('\n')
    .map((line) => line.replace(/ +/g, ' ').trim())
    .join('\n');
}
