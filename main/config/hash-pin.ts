// `npm run hash-pin -- 1234` prints the value for offlinePayments.managerPinHash.
import { hashManagerPin } from './manager-pin';

const pin = process.argv[2];
if (pin === undefined || !/^\d{4,8}$/.test(pin)) {
  console.error('usage: npm run hash-pin -- <4 to 8 digit PIN>');
  process.exitCode = 2;
} else {
  process.stdout.write(`${hashManagerPin(pin)}\n`);
}
