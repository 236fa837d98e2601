// An audible cue for a scan the menu does not know: the cashier is often looking at the customer
// or the item, not the screen. Web Audio only; a page without it (tests, a locked-down browser)
// just shows the message.

let context: AudioContext | null = null;

/** A short low tone, quiet enough for a dining room. Never throws. */
export function beepUnknownCode(): void {
  if (typeof globalThis.AudioContext !== 'function') return;
  try {
    context ??= new AudioContext();
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.type = 'square';
    tone.frequency.value = 220;
    volume.gain.value = 0.05;
    tone.connect(volume).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.18);
  } catch {
    // No audio device, or the browser refused it: the message on screen is the cue.
  }
}
