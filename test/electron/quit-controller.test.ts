// Quitting: the in-flight transaction finishes before the process exits, and with changes still waiting
// for the cloud the cashier is asked first and told what is at stake.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { createQuitController, pendingQuitDialog, type QuitDialog } from '../../main/electron/quit-controller';

function setup(options: { pending?: number; answer?: boolean; shutdown?: () => Promise<void>; timeoutMs?: number } = {}) {
  const log: string[] = [];
  const dialogs: QuitDialog[] = [];
  const controller = createQuitController({
    pendingOperations: () => options.pending ?? 0,
    confirm: async (dialog) => {
      dialogs.push(dialog);
      log.push('asked');
      return options.answer ?? false;
    },
    shutdownCore: options.shutdown ?? (async () => void log.push('core shut down')),
    exit: (code) => log.push(`exit ${code}`),
    logger: silentLogger,
    shutdownTimeoutMs: options.timeoutMs,
  });
  return { controller, log, dialogs };
}

describe('quit controller', () => {
  it('with nothing pending, shuts the core down and exits without asking', async () => {
    const { controller, log } = setup();
    expect(await controller.requestQuit()).toBe('exited');
    expect(log).toEqual(['core shut down', 'exit 0']);
  });

  it('waits for the transaction in flight before exiting', async () => {
    const log: string[] = [];
    let finishTransaction!: () => void;
    const inFlight = new Promise<void>((resolve) => (finishTransaction = resolve)).then(() => void log.push('transaction committed'));
    const controller = createQuitController({
      pendingOperations: () => 0,
      confirm: async () => true,
      shutdownCore: () => inFlight.then(() => void log.push('core shut down')),
      exit: (code) => log.push(`exit ${code}`),
      logger: silentLogger,
    });
    const quitting = controller.requestQuit();
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual([]);
    finishTransaction();
    expect(await quitting).toBe('exited');
    expect(log).toEqual(['transaction committed', 'core shut down', 'exit 0']);
  });

  it('with changes pending, asks and keeps running when the cashier says so', async () => {
    const { controller, log, dialogs } = setup({ pending: 3, answer: false });
    expect(await controller.requestQuit()).toBe('kept-running');
    expect(log).toEqual(['asked']);
    expect(dialogs[0]?.message).toBe('3 changes have not reached the cloud yet.');
    expect(dialogs[0]?.detail).toMatch(/lost for good if this terminal is reset, reinstalled/);
    // Asking again is possible once the first dialog is answered.
    expect(await controller.requestQuit()).toBe('kept-running');
  });

  it('quits after the cashier confirms', async () => {
    const { controller, log } = setup({ pending: 1, answer: true });
    expect(await controller.requestQuit()).toBe('exited');
    expect(log).toEqual(['asked', 'core shut down', 'exit 0']);
  });

  it('shows one dialog however many quit requests arrive', async () => {
    const { controller, dialogs } = setup({ pending: 2, answer: true });
    const [first, second] = await Promise.all([controller.requestQuit(), controller.requestQuit()]);
    expect([first, second]).toEqual(['exited', 'already-quitting']);
    expect(dialogs).toHaveLength(1);
    expect(await controller.requestQuit()).toBe('already-quitting');
  });

  it('does not ask when nobody can answer (OS shutdown, diagnostics export)', async () => {
    const { controller, log } = setup({ pending: 5 });
    expect(await controller.requestQuit({ unattended: true })).toBe('exited');
    expect(log).toEqual(['core shut down', 'exit 0']);
  });

  it('still exits, with a failure code, when the core fails or hangs on shutdown', async () => {
    const failing = setup({ shutdown: async () => Promise.reject(new Error('store busy')) });
    expect(await failing.controller.requestQuit()).toBe('exited');
    expect(failing.log).toEqual(['exit 1']);

    const hanging = setup({ shutdown: () => new Promise(() => {}), timeoutMs: 30 });
    expect(await hanging.controller.requestQuit()).toBe('exited');
    expect(hanging.log).toEqual(['exit 1']);
  });

  it('words the dialog for one change', () => {
    expect(pendingQuitDialog(1)).toMatchObject({ message: '1 change has not reached the cloud yet.', buttons: ['Keep working', 'Quit anyway'], defaultId: 0, cancelId: 0 });
  });
});
