// Sample documents for the printing tests and the crash writer child (no vitest here).
import type { KitchenTicketDoc, ReceiptDoc } from '../../printing/docs';

export function sampleReceipt(marker = 'A17', overrides: Partial<ReceiptDoc> = {}): ReceiptDoc {
  return {
    location: { name: 'Bistro Uno', address: '12 Rue de la Paix\n75002 Paris', phone: '+33 1 23 45 67 89' },
    orderLabel: marker,
    tillLetter: 'A',
    time: { iso: '2025-03-14T11:41:00Z', timeZone: 'Europe/Paris', locale: 'en-GB' },
    service: { type: 'dine_in', table: '12', guests: 2 },
    cashier: 'Ada',
    lines: [
      { name: 'Cheeseburger', quantity: 2, modifiers: ['Extra cheese', 'No pickles'], note: 'well done', amount: 'EUR 24.00' },
      { name: 'Fries', quantity: 1, amount: 'EUR 4.50' },
    ],
    totals: { subtotal: 'EUR 28.50', discounts: [{ label: 'Staff 10%', amount: '-EUR 2.85' }], taxes: [{ label: 'VAT 10%', amount: 'EUR 2.33' }], taxIncluded: true, tip: 'EUR 3.00', total: 'EUR 25.65' },
    payments: [{ tender: 'Cash', amount: 'EUR 40.00' }],
    change: 'EUR 11.35',
    footer: ['Thank you!'],
    ...overrides,
  };
}

export function sampleTicket(marker = 'A17', overrides: Partial<KitchenTicketDoc> = {}): KitchenTicketDoc {
  return {
    orderLabel: marker,
    tillLetter: 'A',
    time: '12:41',
    service: { type: 'dine_in', table: '12' },
    lines: [
      { name: 'Cheeseburger', quantity: 2, modifiers: ['extra cheese', 'no onions'], note: 'well done', categoryId: 'cat_mains', categoryName: 'Mains' },
      { name: 'Mojito', quantity: 1, categoryId: 'cat_drinks', categoryName: 'Drinks' },
      { name: 'Fries', quantity: 1, categoryId: 'cat_sides', categoryName: 'Sides' },
    ],
    orderNote: 'nut allergy',
    ...overrides,
  };
}
