// The printers' configuration, parsed from the terminal's flags (main/ reads them; this is pure):
//   --receipt-printer URL
//   --kitchen-printer NAME=URL       (repeatable)
//   --print-routing CATEGORY=NAME,...
// A URL is tcp://host[:port] (raw ESC/POS, port 9100 by default), a device path (/dev/usb/lp0;
// on Windows a shared printer's \\host\share), or file:/path (appends: tests, debugging), with
// optional settings after "?": cpl=42, encoding=cp858, commands=generic, status=off.
import { ESCPOS_COMMAND_SETS, PRINTER_ENCODINGS, DEFAULT_CPL, type EscPosCommandSet, type PrinterEncoding } from './render';
import type { PrinterTarget } from './transport';

/** The receipt printer's name in the queue and in routing. */
export const RECEIPT_PRINTER = 'receipt';

export interface PrinterConfig {
  /** 'receipt', or the kitchen printer's name. */
  name: string;
  /** As given (shown in the status panel). */
  url: string;
  target: PrinterTarget;
  cpl: number;
  encoding: PrinterEncoding;
  commandSet: EscPosCommandSet;
  /** Ask DLE EOT status before each job (TCP only; default on there). */
  statusQuery: boolean;
}

export interface PrintingConfig {
  receipt: PrinterConfig | null;
  kitchen: PrinterConfig[];
  /** Category id (or name, any case) → printer name. */
  routing: Record<string, string>;
}

/** The flags' values as the command line (or the environment) gave them. */
export interface PrintingFlags {
  receiptPrinter?: string | null;
  /** Each NAME=URL; a single string may hold several, separated by commas (an environment variable). */
  kitchenPrinters?: readonly string[] | string | null;
  printRouting?: string | null;
}

export type PrintingField = '--receipt-printer' | '--kitchen-printer' | '--print-routing';

export interface PrintingConfigError {
  field: PrintingField;
  message: string;
}

export type PrintingConfigResult = { ok: true; config: PrintingConfig } | { ok: false; error: PrintingConfigError };

const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/i;
const URL_HELP = 'a printer is tcp://host:9100, a device path (/dev/usb/lp0) or file:/path';

type UrlResult = { ok: true; printer: Omit<PrinterConfig, 'name'> } | { ok: false; message: string };

/** One printer URL (with its ?settings), or why it is not one. */
export function parsePrinterUrl(url: string): UrlResult {
  const text = url.trim();
  if (text === '') return { ok: false, message: `is empty: ${URL_HELP}` };
  const question = text.indexOf('?');
  const base = question === -1 ? text : text.slice(0, question);
  const query = new URLSearchParams(question === -1 ? '' : text.slice(question + 1));
  let target: PrinterTarget;
  if (/^tcp:/i.test(base)) {
    let parsed: URL;
    try {
      parsed = new URL(base);
    } catch {
      return { ok: false, message: `"${url}" is not a valid tcp://host:port address` };
    }
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    if (host === '') return { ok: false, message: `"${url}" names no host: tcp://host:9100` };
    if ((parsed.pathname !== '' && parsed.pathname !== '/') || parsed.username || parsed.password) {
      return { ok: false, message: `"${url}": a tcp printer is only tcp://host:port` };
    }
    const port = parsed.port === '' ? 9100 : Number(parsed.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, message: `"${url}": the port must be 1..65535` };
    target = { kind: 'tcp', host, port };
  } else if (/^file:/i.test(base)) {
    let path: string;
    try {
      path = decodeURIComponent(new URL(base).pathname);
    } catch {
      return { ok: false, message: `"${url}" is not a valid file: URL (file:/path/to/file)` };
    }
    if (path === '' || path === '/') return { ok: false, message: `"${url}" names no file` };
    target = { kind: 'device', path: /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path, create: true };
  } else if (base.startsWith('/') || base.startsWith('\\\\') || /^[A-Za-z]:[\\/]/.test(base)) {
    target = { kind: 'device', path: base, create: false };
  } else {
    return { ok: false, message: `"${url}" is not a printer address: ${URL_HELP}` };
  }

  for (const key of query.keys()) {
    if (!['cpl', 'encoding', 'commands', 'status'].includes(key)) return { ok: false, message: `"${url}": unknown setting "${key}" (cpl, encoding, commands, status)` };
  }
  const cplText = query.get('cpl');
  const cpl = cplText === null ? DEFAULT_CPL : Number(cplText);
  if (!Number.isInteger(cpl) || cpl < 24 || cpl > 64) return { ok: false, message: `"${url}": cpl must be a whole number of characters per line, 24..64 (48 on 80 mm paper, 32 on 58 mm)` };
  const encoding = query.get('encoding') ?? 'multilingual';
  if (!(PRINTER_ENCODINGS as readonly string[]).includes(encoding)) return { ok: false, message: `"${url}": encoding must be one of ${PRINTER_ENCODINGS.join(', ')}` };
  const commandSet = query.get('commands') ?? 'escpos';
  if (!(ESCPOS_COMMAND_SETS as readonly string[]).includes(commandSet)) return { ok: false, message: `"${url}": commands must be one of ${ESCPOS_COMMAND_SETS.join(', ')}` };
  const status = query.get('status') ?? (target.kind === 'tcp' ? 'on' : 'off');
  if (status !== 'on' && status !== 'off') return { ok: false, message: `"${url}": status must be on or off` };
  if (status === 'on' && target.kind !== 'tcp') return { ok: false, message: `"${url}": status queries need a tcp:// printer (a device path is write-only here)` };
  return { ok: true, printer: { url: text, target, cpl, encoding: encoding as PrinterEncoding, commandSet: commandSet as EscPosCommandSet, statusQuery: status === 'on' } };
}

function splitList(value: readonly string[] | string | null | undefined): string[] {
  if (value == null) return [];
  const list = typeof value === 'string' ? value.split(',') : value;
  return list.map((item) => item.trim()).filter((item) => item !== '');
}

/** The printing flags to a typed configuration, or the first problem with the flag it is in. */
export function parsePrintingConfig(flags: PrintingFlags): PrintingConfigResult {
  const fail = (field: PrintingField, message: string): PrintingConfigResult => ({ ok: false, error: { field, message } });
  let receipt: PrinterConfig | null = null;
  if (flags.receiptPrinter != null && flags.receiptPrinter.trim() !== '') {
    const parsed = parsePrinterUrl(flags.receiptPrinter);
    if (!parsed.ok) return fail('--receipt-printer', parsed.message);
    receipt = { name: RECEIPT_PRINTER, ...parsed.printer };
  }

  const kitchen: PrinterConfig[] = [];
  for (const entry of splitList(flags.kitchenPrinters)) {
    const equals = entry.indexOf('=');
    if (equals === -1) return fail('--kitchen-printer', `"${entry}" must be NAME=URL (grill=tcp://10.0.0.21:9100)`);
    const name = entry.slice(0, equals).trim();
    if (!NAME.test(name)) return fail('--kitchen-printer', `"${name}" is not a printer name: letters, digits, - and _, up to 32, starting with a letter or digit`);
    if (name.toLowerCase() === RECEIPT_PRINTER) return fail('--kitchen-printer', `"${name}" is the receipt printer's name; give the kitchen printer another`);
    if (kitchen.some((p) => p.name.toLowerCase() === name.toLowerCase())) return fail('--kitchen-printer', `"${name}" is given twice`);
    const parsed = parsePrinterUrl(entry.slice(equals + 1));
    if (!parsed.ok) return fail('--kitchen-printer', `${name}: ${parsed.message}`);
    kitchen.push({ name, ...parsed.printer });
  }

  const routing: Record<string, string> = {};
  const known = [...(receipt ? [RECEIPT_PRINTER] : []), ...kitchen.map((p) => p.name)];
  for (const entry of splitList(flags.printRouting)) {
    const equals = entry.indexOf('=');
    if (equals === -1) return fail('--print-routing', `"${entry}" must be CATEGORY=PRINTER (drinks=bar)`);
    const category = entry.slice(0, equals).trim();
    const printerName = entry.slice(equals + 1).trim();
    if (category === '') return fail('--print-routing', `"${entry}" names no category`);
    const printer = known.find((name) => name.toLowerCase() === printerName.toLowerCase());
    if (printer === undefined) {
      return fail('--print-routing', `"${entry}": no printer is named "${printerName}" (${known.length ? `configured: ${known.join(', ')}` : 'no printer is configured'})`);
    }
    if (Object.keys(routing).some((c) => c.toLowerCase() === category.toLowerCase())) return fail('--print-routing', `category "${category}" is routed twice`);
    routing[category] = printer;
  }
  return { ok: true, config: { receipt, kitchen, routing } };
}

/** Every configured printer, the receipt printer first. */
export function configuredPrinters(config: PrintingConfig): PrinterConfig[] {
  return [...(config.receipt ? [config.receipt] : []), ...config.kitchen];
}

/** Where kitchen lines whose category is not routed go: the first kitchen printer, else the receipt printer. */
export function defaultKitchenPrinter(config: PrintingConfig): string {
  return config.kitchen[0]?.name ?? RECEIPT_PRINTER;
}

const FLAG_FIELDS: Record<string, keyof PrintingFlags> = {
  'receipt-printer': 'receiptPrinter',
  'kitchen-printer': 'kitchenPrinters',
  'print-routing': 'printRouting',
};

/**
 * Takes the printing flags out of a command line (`--flag value` or `--flag=value`) and returns
 * them with the other arguments, untouched and in order, for the rest of the configuration.
 */
export function extractPrintingFlags(argv: readonly string[]): { ok: true; flags: PrintingFlags; rest: string[] } | { ok: false; error: PrintingConfigError } {
  const rest: string[] = [];
  const kitchenPrinters: string[] = [];
  const flags: PrintingFlags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const match = /^--(receipt-printer|kitchen-printer|print-routing)(?:=(.*))?$/s.exec(arg);
    if (!match) {
      rest.push(arg);
      continue;
    }
    const name = match[1] as string;
    let value = match[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return { ok: false, error: { field: `--${name}` as PrintingField, message: 'needs a value' } };
      value = next;
      i++;
    }
    const field = FLAG_FIELDS[name] as keyof PrintingFlags;
    if (field === 'kitchenPrinters') kitchenPrinters.push(value);
    else if (flags[field] !== undefined) return { ok: false, error: { field: `--${name}` as PrintingField, message: 'is given twice' } };
    else flags[field] = value;
  }
  if (kitchenPrinters.length > 0) flags.kitchenPrinters = kitchenPrinters;
  return { ok: true, flags, rest };
}
