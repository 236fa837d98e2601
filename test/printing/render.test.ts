// Rendering: one ReceiptLine markup per document, to ESC/POS bytes (read back as paper) and to SVG.
import { describe, expect, it } from 'vitest';
import { COPY_TEXT, drawerKickBytes, NOT_A_RECEIPT_TEXT, printableText, renderJob, renderKitchenTicket, renderReceipt, renderReport, UNCONFIRMED_TEXT, wrapText } from '../../printing';
import { decodeEscPos, normalizedText } from './escpos-decode';
import { sampleReceipt, sampleTicket } from './fixtures';

/** The paper's lines, trimmed at the right, runs of spaces kept (indentation shows). */
function paperLines(bytes: Buffer): string[] {
  return decodeEscPos(bytes).text.split('\n').map((line) => line.trimEnd());
}

describe('customer receipt', () => {
  it('prints the location, the order, every item with its modifiers and note, the totals and the payments, then cuts', () => {
    const bytes = renderReceipt(sampleReceipt('A17'), { target: 'escpos', cpl: 42 });
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1b, 0x40])); // ESC @: initialize
    const paper = decodeEscPos(bytes);
    const text = normalizedText(paper);
    for (const expected of [
      'Bistro Uno', '12 Rue de la Paix', '75002 Paris', 'Order A17 Till A', '14/03/2025, 12:41', 'Dine in - Table 12 - 2 guests', 'Served by Ada',
      '2 x Cheeseburger EUR 24.00', '+ Extra cheese', '+ No pickles', 'Note: well done', '1 x Fries EUR 4.50',
      'Subtotal EUR 28.50', 'Staff 10% -EUR 2.85', 'TOTAL EUR 25.65', 'Tip EUR 3.00', 'incl. VAT 10% EUR 2.33', 'Cash EUR 40.00', 'Change EUR 11.35', 'Thank you!',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain(UNCONFIRMED_TEXT);
    expect(paper.cuts).toBe(1);
    expect(paper.drawerKicks).toEqual([]);
  });

  it('fits 42 and 48 characters a line, wrapping long names at word boundaries', () => {
    const long = sampleReceipt('A18', { lines: [{ name: 'Slow-cooked lamb shoulder with rosemary potatoes and seasonal greens', quantity: 1, amount: 'EUR 31.00' }] });
    for (const cpl of [42, 48]) {
      const lines = paperLines(renderReceipt(long, { cpl }));
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(cpl);
      const joined = normalizedText(lines.join('\n'));
      expect(joined).toMatch(/1 x Slow\\?-cooked lamb/);
      expect(joined).toContain('EUR 31.00');
      // No word is cut in two.
      for (const word of ['shoulder', 'rosemary', 'potatoes', 'seasonal', 'greens']) expect(joined).toContain(word);
    }
  });

  it('escapes the markup characters of ReceiptLine in names and notes', () => {
    const doc = sampleReceipt('A19', { lines: [{ name: 'Fish | Chips {large}', quantity: 1, note: '~no_salt^ "please" `now` \\ ---', amount: 'EUR 9.00' }] });
    const text = normalizedText(decodeEscPos(renderReceipt(doc))).replace(/\n/g, ' ');
    expect(text).toContain('1 x Fish | Chips {large} EUR 9.00');
    expect(text).toContain('Note: ~no_salt^ "please" `now` \\ ---');
  });

  it('says NOT YET CONFIRMED BY THE CLOUD when the sale is not confirmed', () => {
    const text = normalizedText(decodeEscPos(renderReceipt(sampleReceipt('A20', { unconfirmed: true }))));
    expect(text.split(UNCONFIRMED_TEXT).length - 1).toBe(2); // under the header and at the bottom
  });

  it('prints a refund receipt', () => {
    const doc = sampleReceipt('A21', {
      variant: 'refund',
      lines: [{ name: 'Fries', quantity: 1, amount: '-EUR 4.50' }],
      totals: { subtotal: '-EUR 4.50', total: 'EUR 4.50' },
      payments: [{ tender: 'Refund to cash', amount: 'EUR 4.50' }],
      change: null,
      refund: { originalOrder: 'A21, 14/03 12:41', reason: 'cold fries' },
    });
    const text = normalizedText(decodeEscPos(renderJob('refund_receipt', doc)));
    for (const expected of ['REFUND', 'Refund of A21, 14/03 12:41', 'Reason: cold fries', '1 x Fries -EUR 4.50', 'REFUNDED EUR 4.50', 'Refund to cash EUR 4.50']) {
      expect(text).toContain(expected);
    }
  });

  it('renders the same receipt as SVG for the preview, without fetching a web font', () => {
    const svg = renderReceipt(sampleReceipt('A22'), { target: 'svg', cpl: 42 });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('width="504px"'); // 42 characters × 12 px
    expect(svg).not.toContain('@import');
    expect(svg).not.toContain('googleapis');
    // SVG spells each character in its own tspan: the text is there once the tags are gone.
    const letters = svg.replace(/<[^>]+>/g, '').replace(/&#xa0;/g, ' ');
    for (const expected of ['BistroUno', 'Cheeseburger', 'EUR24.00', 'EUR25.65']) expect(letters.replace(/\s/g, '')).toContain(expected);
  });
});

describe('kitchen tickets', () => {
  it('prints large items with modifiers indented and notes, the order number, till, service and note, then cuts', () => {
    const bytes = renderKitchenTicket(sampleTicket('B7', { station: 'grill' }), { cpl: 42 });
    const lines = paperLines(bytes);
    const text = normalizedText(lines.join('\n'));
    for (const expected of ['B7', 'DINE IN - TABLE 12', 'Till A - GRILL 12:41', '2 x Cheeseburger', '1 x Mojito', '1 x Fries', 'ORDER NOTE: nut allergy']) {
      expect(text).toContain(expected);
    }
    expect(lines).toContain('  + extra cheese');
    expect(lines).toContain('  + no onions');
    expect(lines).toContain('  NOTE: well done');
    // Large type: the items are printed at double size (GS ! 0x11).
    const big = bytes.indexOf(Buffer.from([0x1d, 0x21, 0x11]));
    expect(big).toBeGreaterThan(-1);
    expect(bytes.indexOf(Buffer.from('Cheeseburger', 'latin1'))).toBeGreaterThan(big);
    expect(decodeEscPos(bytes).cuts).toBe(1);
  });

  it('prints ADD and VOID tickets with a banner and only their lines', () => {
    const add = normalizedText(decodeEscPos(renderJob('kitchen_add', sampleTicket('B8', { lines: [{ name: 'Onion rings', quantity: 1 }] }))));
    expect(add.split('\n')[0]).toBe('ADD');
    expect(add).toContain('1 x Onion rings');
    expect(add).not.toContain('Cheeseburger');
    const voided = normalizedText(decodeEscPos(renderJob('kitchen_void', sampleTicket('B8', { lines: [{ name: 'Mojito', quantity: 1 }] }))));
    expect(voided.split('\n')[0]).toBe('VOID');
    expect(voided).toContain('1 x Mojito');
    const wholeOrder = normalizedText(decodeEscPos(renderJob('kitchen_void', sampleTicket('B9', { lines: [] }))));
    expect(wholeOrder).toContain('WHOLE ORDER');
  });

  it('marks a job sent again after it was in doubt as a REPRINT', () => {
    expect(normalizedText(decodeEscPos(renderJob('kitchen', sampleTicket('B10'), { reprint: true })))).toContain('REPRINT');
    expect(normalizedText(decodeEscPos(renderJob('receipt', sampleReceipt('B10'), { reprint: true })))).toContain('REPRINT');
    expect(normalizedText(decodeEscPos(renderJob('kitchen', sampleTicket('B10'))))).not.toContain('REPRINT');
  });
});

describe('drawer kick and report', () => {
  it('kicks the drawer with ESC p m t1 t2', () => {
    expect(drawerKickBytes()).toEqual(Buffer.from([0x1b, 0x70, 0, 50, 100]));
    expect(drawerKickBytes({ pin: 5, onMs: 50, offMs: 500 })).toEqual(Buffer.from([0x1b, 0x70, 1, 25, 250]));
    expect(decodeEscPos(renderJob('drawer', {})).drawerKicks).toEqual([{ pin: 2, onMs: 100, offMs: 200 }]);
  });

  it('prints a report of titled rows', () => {
    const report = renderReport({
      title: 'End of day',
      time: '14/03/2025 23:05',
      subtitle: ['Till A', 'Business day 2025-03-14'],
      sections: [{ title: 'Sales', rows: [{ label: 'Orders', value: '128' }, { label: 'Gross sales', value: 'EUR 4,310.50' }] }, { title: 'Tenders', rows: [{ label: 'Cash', value: 'EUR 1,020.00' }] }],
    });
    const text = normalizedText(decodeEscPos(report));
    for (const expected of ['End of day', 'Till A', 'Business day 2025-03-14', '14/03/2025 23:05', 'Sales', 'Orders 128', 'Gross sales EUR 4,310.50', 'Tenders', 'Cash EUR 1,020.00']) {
      expect(text).toContain(expected);
    }
  });

  it('refuses a payload that is not the kind\'s document (the worker marks such a job failed)', () => {
    expect(() => renderJob('receipt', { orderLabel: 'A1' })).toThrow();
    expect(() => renderJob('kitchen', null)).toThrow();
  });
});

describe('characters the printer cannot print', () => {
  it('drops emoji and keeps what the code page has: "light ice 🧊" is "light ice", never "??"', () => {
    const ticket = sampleTicket('C1', { lines: [{ name: 'Iced tea', quantity: 1, note: 'light ice 🧊', modifiers: ['no 🍋 please', '👨‍👩‍👧 share ❤️'] }], orderNote: 'Zoë’s birthday 🎂 – café crème' });
    const text = normalizedText(decodeEscPos(renderKitchenTicket(ticket, { cpl: 42 })));
    expect(text).not.toContain('?');
    expect(text).toContain('NOTE: light ice');
    expect(text).toContain('+ no please');
    expect(text).toContain('+ share');
    expect(text).toContain('ORDER NOTE: Zoë’s birthday – café crème');
  });

  it('transliterates what a fixed code page lacks (cp437 has é and ó, not ő, Ł, ź, €, “ ”) and marks a script it cannot print with one "*"', () => {
    const doc = sampleReceipt('C2', { lines: [{ name: 'Gőzgombóc “Łódź” 🥟', quantity: 1, note: 'Pho 牛肉', amount: '€9.00' }] });
    const text = normalizedText(decodeEscPos(renderReceipt(doc, { cpl: 42, encoding: 'cp437' })));
    expect(text).not.toContain('?');
    expect(text).toContain('1 x Gozgombóc "Lódz" EUR9.00');
    expect(text).toContain('Note: Pho *');
    expect(printableText('Straße Æble Œuf naïve', 'cp437')).toBe('Straße Æble OEuf naïve'); // ß Æ ï are in cp437, Œ is not
    expect(printableText('Straße', 'cp852')).toBe('Straße');
  });

  it('shows the same text in the preview as on paper', () => {
    const svg = renderKitchenTicket(sampleTicket('C3', { lines: [{ name: 'Tea 🍵', quantity: 1 }] }), { target: 'svg', cpl: 42 });
    expect(svg).not.toContain('🍵');
    expect(svg.replace(/<[^>]+>/g, '')).not.toContain('?');
  });
});

describe('bills, copies and refunds', () => {
  it('prints a bill for a check not paid in full: BILL, not a receipt, what was paid and what is DUE, the suggested tips', () => {
    const doc = sampleReceipt('D1', {
      payments: [{ tender: 'Card', amount: 'EUR 10.00', splitPart: '1 of 2' }],
      change: null,
      bill: true,
      due: { paidSoFar: 'EUR 10.00', amount: 'EUR 15.65' },
      tipGuide: [{ label: '15%', amount: 'EUR 2.35' }, { label: '20%', amount: 'EUR 3.13' }],
      footer: [],
    });
    const text = normalizedText(decodeEscPos(renderReceipt(doc, { cpl: 42 })));
    for (const expected of ['BILL', 'Paid so far EUR 10.00', 'DUE EUR 15.65', 'Suggested tip (on the amount due):', '15% EUR 2.35', '20% EUR 3.13']) expect(text).toContain(expected);
    expect(text.split(NOT_A_RECEIPT_TEXT)).toHaveLength(3);
  });

  it('prints the balance on the receipt of a part payment, and COPY on a copy', () => {
    const part = normalizedText(decodeEscPos(renderReceipt(sampleReceipt('D2', { due: { paidSoFar: 'EUR 10.00', amount: 'EUR 15.65' } }))));
    expect(part).toContain('Balance due EUR 15.65');
    expect(part).not.toContain(NOT_A_RECEIPT_TEXT);
    const copy = normalizedText(decodeEscPos(renderReceipt(sampleReceipt('D3', { copy: true }))));
    expect(copy.split('\n').filter((line) => line === COPY_TEXT)).toHaveLength(2);
  });

  it('prints a refund receipt without a Subtotal: what was before tax, the tax, REFUNDED', () => {
    const doc = sampleReceipt('D4', {
      variant: 'refund',
      lines: [{ name: 'Fries', quantity: 1, amount: 'EUR 4.00' }],
      totals: { subtotal: 'EUR 4.00', subtotalLabel: 'Items before tax', taxes: [{ label: 'VAT 10%', amount: 'EUR 0.40' }], total: 'EUR 4.40' },
      payments: [{ tender: 'Back in cash', amount: 'EUR 4.40' }],
      change: null,
      refund: { reason: 'Requested by customer' },
    });
    const text = normalizedText(decodeEscPos(renderJob('refund_receipt', doc)));
    expect(text).not.toContain('Subtotal');
    for (const expected of ['Items before tax EUR 4.00', 'VAT 10% EUR 0.40', 'REFUNDED EUR 4.40', 'Back in cash EUR 4.40', 'Reason: Requested by customer']) expect(text).toContain(expected);
  });
});

describe('word wrapping', () => {
  it('wraps at spaces, cuts only words longer than a line, and indents continuation lines', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapText('one two three four', 9, 2)).toEqual(['one two', '  three', '  four']);
    expect(wrapText('a\nb', 9)).toEqual(['a', 'b']);
  });
});
