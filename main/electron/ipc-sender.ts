// Who may call the bridge over IPC: only the main frame of our own window, showing our own origin.
// An iframe, a devtools-injected page, a navigated-away window or a second webContents is refused.
import { isAppUrl } from './app-origin';

/** What the IPC event tells about its sender, read off `IpcMainInvokeEvent` by the shell. */
export interface IpcSenderFacts {
  /** `event.sender.id` */
  webContentsId: number;
  /** `event.senderFrame?.url`; undefined when the frame is gone. */
  frameUrl: string | undefined;
  /** `event.senderFrame === event.sender.mainFrame` (and it has no parent). */
  isMainFrame: boolean;
}

export function isTrustedSender(sender: IpcSenderFacts, cashierWebContentsId: number | undefined): boolean {
  return (
    cashierWebContentsId !== undefined &&
    sender.webContentsId === cashierWebContentsId &&
    sender.isMainFrame &&
    sender.frameUrl !== undefined &&
    isAppUrl(sender.frameUrl)
  );
}
