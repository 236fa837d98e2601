// The printing room's public surface (docs/printing.md): documents, rendering, printer
// configuration, routing, transport and status, job builders, and the print worker.
export {
  DocTime,
  DocLocation,
  DocService,
  DocAmount,
  ReceiptDoc,
  ReceiptLine,
  ReceiptPayment,
  KitchenTicketDoc,
  KitchenLine,
  ReportDoc,
  DrawerKickDoc,
} from './docs';
export { receiptMarkup, kitchenMarkup, reportMarkup, escapeText, wrapText, formatTime, UNCONFIRMED_TEXT, REPRINT_TEXT, COPY_TEXT, NOT_A_RECEIPT_TEXT } from './markup';
export {
  renderReceipt,
  renderKitchenTicket,
  renderReport,
  renderJob,
  drawerKickBytes,
  DEFAULT_CPL,
  PRINTER_ENCODINGS,
  ESCPOS_COMMAND_SETS,
  type RenderOptions,
  type RenderTarget,
  type RenderableKind,
  type PrinterEncoding,
  type EscPosCommandSet,
} from './render';
export {
  parsePrintingConfig,
  parsePrinterUrl,
  extractPrintingFlags,
  configuredPrinters,
  defaultKitchenPrinter,
  RECEIPT_PRINTER,
  type PrinterConfig,
  type PrintingConfig,
  type PrintingFlags,
  type PrintingField,
  type PrintingConfigError,
  type PrintingConfigResult,
} from './config';
export { routeKitchenLines, printerForLine, diffKitchenLines, type KitchenRouting, type RoutableLine, type DiffableLine } from './routing';
export { STATUS_QUERY, parseStatus, encodeStatus, isStatusByte, blockingCondition, type PrinterStatus } from './status';
export {
  connectPrinter,
  sendBytes,
  queryStatus,
  describeTarget,
  COMPUTER_NOT_PRINTER,
  PrintTransportError,
  type PrinterTarget,
  type PrinterConnection,
  type TransportTimeouts,
  type StatusResult,
} from './transport';
export { receiptJob, kitchenJobs, drawerJob, reportJob } from './jobs';
export { PrintWorker, type PrintWorkerOptions, type PrinterStatusView, type PrinterState, type PrintLogger, type CloudState } from './worker';
export { printableText } from './charset';
