// What a table's tile shows when it is too small for all its lines (docs/tables.md, "The floor's
// tiles"): the rule, pure so it is tested apart from the page, and the hook that measures a tile in
// the page and applies it. Nothing is ever cut mid-glyph: a line that does not fit is not shown at
// all; everything is still in the tile's name (aria-label) and title, and on the table's sheet.
import { useLayoutEffect, type RefObject } from 'react';

/**
 * The name's sizes, as fractions of its full size (1.35rem: 21.6, 17.7, 14.7, 12.1 px), largest
 * first; the smallest only for a name shown alone (a tiny tile: still bold, as large as the other lines).
 */
export const NAME_STEPS = [1, 0.82, 0.68, 0.56] as const;
/** A name wraps (anywhere: "PATIOCORNER1" has no space) onto at most this many lines before lines are dropped. */
const NAME_LINES = 2;
/** Space kept between the words and the ⋯ button when they sit side by side. */
const BESIDE_MORE = 2;
/** Breaking anywhere does not fill each line to the last pixel: a little room for it. */
const WRAP_SLACK = 1.06;
/** A name shorter than this is never broken ("R1" on two lines reads as two words). */
const WRAP_MIN_CHARS = 5;

export interface Size {
  width: number;
  height: number;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** One of a tile's lines below its name, in the order they are kept (the first is dropped last). */
export interface TileLine extends Size {
  kind: string;
  /**
   * The line broken at its spaces, a word a line (the state's words: "Needs clearing"): tried when it
   * does not fit on one line, before it is left out, since the word is what a colour-blind eye reads.
   */
  broken?: Size;
}

export interface TileMeasure {
  /** The box the lines are drawn in: the tile inside its border. */
  box: Size;
  /** A round tile: every line must lie inside the ellipse the box holds, not only inside the box. */
  round: boolean;
  /** How many characters the name has. */
  nameChars: number;
  /** The space between two lines. */
  gap: number;
  /** The name's box on one line at its full size. */
  name: Size;
  lines: readonly TileLine[];
  /** The ⋯ button's box relative to the lines' box; null when the tile has none. */
  more: Box | null;
}

export interface TileFit {
  /** The lines left out, by kind (the last ones first). */
  dropped: string[];
  /** The lines shown broken at their spaces (TileLine.broken), by kind. */
  broken: string[];
  /** Index into NAME_STEPS. */
  nameStep: number;
  /** Lines the name takes (it wraps anywhere when 2). */
  nameLines: number;
  /** The width a name on two lines is given (about half its own, so its lines are even and it stays clear of a round tile's curve); null on one line. */
  nameWidth: number | null;
  /** Pixels kept free at the right of the lines beside the ⋯ button (level with it), so they sit beside it, not under it. */
  reserve: number;
  /** How many of the lines shown, from the name down, sit level with the ⋯ button (centred in what it leaves). */
  beside: number;
  /** The lines sit at the bottom of their box (under the ⋯ button) rather than in its middle. */
  low: boolean;
  /** False when even the name alone at its smallest does not fit: it is shown on two lines and cut by a rule (an ellipsis). */
  fits: boolean;
}

/** `at` (in the box's coordinates) lies whole in the box, and inside its ellipse when `round`. */
export function insideTile(at: Box, box: Size, round: boolean): boolean {
  const slack = 0.5;
  if (at.left < -slack || at.top < -slack || at.right > box.width + slack || at.bottom > box.height + slack) return false;
  if (!round) return true;
  const rx = box.width / 2 + slack;
  const ry = box.height / 2 + slack;
  return [at.left, at.right].every((x) => [at.top, at.bottom].every((y) => ((x - box.width / 2) / rx) ** 2 + ((y - box.height / 2) / ry) ** 2 <= 1));
}

const overlaps = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

/**
 * The ways a tile may show its lines that the rule expects to fit, best first: all of its lines if
 * they fit; else a smaller name, then the name on two lines, then the state's words broken onto
 * lines of their own, then the last line left out (the server, then the short line, then the
 * state's word), until what is left fits. Each is tried
 * centred in the tile, then at its bottom, each with the lines level with the ⋯ button centred
 * beside it: a tile's words never run under it, and a round tile's stay inside its circle. The
 * last is the rule's last resort: the name alone, on two lines, cut by an ellipsis.
 */
export function tileFits(measure: TileMeasure): TileFit[] {
  const { box, gap, name, lines, more, round, nameChars } = measure;
  const reserve = more !== null && more.left > 0 ? Math.max(0, box.width - more.left + BESIDE_MORE) : 0;
  const modes: { beside: boolean; low: boolean }[] = [{ beside: false, low: false }];
  if (more !== null) modes.push({ beside: false, low: true });
  if (reserve > 0) modes.push({ beside: true, low: false }, { beside: true, low: true });
  const tries: { step: number; nameLines: number }[] = [];
  for (let nameLines = 1; nameLines <= NAME_LINES; nameLines += 1) for (let step = 0; step < NAME_STEPS.length; step += 1) tries.push({ step, nameLines });
  const found: TileFit[] = [];
  // What is shown, best first: all the lines, each on one line, then with those that may break broken;
  // then the last one left out, and so on.
  const choices: { kept: number; shown: readonly TileLine[]; broken: string[] }[] = [];
  for (let kept = lines.length; kept >= 0; kept -= 1) {
    const shown = lines.slice(0, kept);
    choices.push({ kept, shown, broken: [] });
    if (shown.some((line) => line.broken)) {
      choices.push({ kept, shown: shown.map((line) => (line.broken ? { ...line, ...line.broken } : line)), broken: shown.filter((line) => line.broken).map((line) => line.kind) });
    }
  }
  for (const { kept, shown, broken } of choices) {
    for (const { step, nameLines } of tries) {
      if (nameLines > 1 && nameChars < WRAP_MIN_CHARS) continue;
      if (step === NAME_STEPS.length - 1 && kept > 0) continue;
      const nameWidth = name.width * NAME_STEPS[step]!;
      const nameHeight = name.height * NAME_STEPS[step]! * nameLines;
      const total = nameHeight + shown.reduce((sum, line) => sum + line.height + gap, 0);
      if (total > box.height + 0.5) continue;
      for (const { beside, low } of modes) {
        let top = low ? box.height - total : (box.height - total) / 2;
        let besideCount = 0;
        let nameBlock = nameWidth;
        const clear = [{ width: nameWidth, height: nameHeight }, ...shown].every((line, index) => {
          const level = beside && more !== null && top < more.bottom - 0.5 && top + line.height > more.top + 0.5;
          const room = level ? box.width - reserve : box.width;
          let width = line.width;
          if (index === 0) {
            // The name: on one line if it fits, else broken into `nameLines` even lines.
            const needed = nameWidth <= room ? 1 : Math.ceil((nameWidth * WRAP_SLACK) / room);
            if (needed !== nameLines) return false;
            width = nameBlock = nameLines > 1 ? Math.min(room, Math.ceil((nameWidth * WRAP_SLACK) / nameLines) + 2) : nameWidth;
          }
          if (level) besideCount = index + 1;
          const left = (room - width) / 2;
          const at: Box = { left, top, right: left + width, bottom: top + line.height };
          top += line.height + gap;
          return width <= room + 0.5 && insideTile(at, box, round) && (more === null || !overlaps(at, more));
        });
        if (clear) {
          found.push({ dropped: lines.slice(kept).map((line) => line.kind), broken, nameStep: step, nameLines, nameWidth: nameLines > 1 ? nameBlock : null, reserve: besideCount > 0 ? reserve : 0, beside: besideCount, low, fits: true });
        }
      }
    }
  }
  // The last resort: the name alone, smallest, on two lines beside the ⋯; on a round tile no wider
  // than its circle allows for two lines at its middle.
  const room = box.width - reserve;
  const half = (name.height * NAME_STEPS[NAME_STEPS.length - 1]! * NAME_LINES) / 2;
  const across = (box.width / 2) * Math.sqrt(Math.max(0, 1 - (half / (box.height / 2)) ** 2));
  // A name that fits on one line beside the ⋯ keeps it (a tiny round tile: its ends may touch the curve).
  const oneLine = name.width * NAME_STEPS[NAME_STEPS.length - 1]!;
  const lastWidth = Math.max(1, oneLine <= room ? oneLine : round ? Math.min(room, room - 2 * (box.width / 2 - across)) : room);
  found.push({ dropped: lines.map((line) => line.kind), broken: [], nameStep: NAME_STEPS.length - 1, nameLines: NAME_LINES, nameWidth: lastWidth, reserve, beside: reserve > 0 ? 1 : 0, low: false, fits: false });
  return found;
}

/** The first of `tileFits`: how a tile shows its lines when the page measures as the rule expects. */
export function fitTile(measure: TileMeasure): TileFit {
  return tileFits(measure)[0]!;
}

/** The lines that may break at their spaces rather than be left out (tables.css draws them so with data-fit-break). */
const BREAKABLE: readonly string[] = ['state'];

const FIT_ATTRIBUTES = ['data-fit-drop', 'data-fit-break', 'data-fit-name', 'data-fit-wrap', 'data-fit-low', 'data-fit-cut'] as const;

function clearFit(linesBox: HTMLElement): void {
  for (const name of FIT_ATTRIBUTES) linesBox.removeAttribute(name);
  linesBox.style.removeProperty('--fit-reserve');
  linesBox.style.removeProperty('--fit-name-width');
  for (const line of linesBox.children) line.removeAttribute('data-fit-beside');
}

/** Shows `fit` on the tile whose lines (name first, then the others in order) are `elements`. */
function setFit(linesBox: HTMLElement, elements: readonly HTMLElement[], fit: TileFit): void {
  clearFit(linesBox);
  if (fit.dropped.length > 0) linesBox.setAttribute('data-fit-drop', fit.dropped.join(' '));
  if (fit.broken.length > 0) linesBox.setAttribute('data-fit-break', fit.broken.join(' '));
  if (fit.nameStep > 0) linesBox.setAttribute('data-fit-name', String(fit.nameStep));
  if (fit.nameLines > 1) linesBox.setAttribute('data-fit-wrap', '');
  if (fit.low) linesBox.setAttribute('data-fit-low', '');
  if (!fit.fits) linesBox.setAttribute('data-fit-cut', '');
  if (fit.reserve > 0) linesBox.style.setProperty('--fit-reserve', `${fit.reserve}px`);
  if (fit.nameWidth !== null) linesBox.style.setProperty('--fit-name-width', `${fit.nameWidth}px`);
  elements
    .filter((el) => !fit.dropped.includes(el.dataset['line'] ?? ''))
    .slice(0, fit.beside)
    .forEach((el) => el.setAttribute('data-fit-beside', ''));
}

const boxOf = (el: Element): Box => {
  const rect = el.getBoundingClientRect();
  return { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
};

/** As drawn now: every line shown lies whole in the tile's box `bounds` (its ellipse when `round`) and clear of its ⋯ button. */
function fitsAsDrawn(linesBox: HTMLElement, bounds: Box, round: boolean, more: Box | null): boolean {
  const box = { width: bounds.right - bounds.left, height: bounds.bottom - bounds.top };
  return [...linesBox.children].every((child) => {
    if (child.getClientRects().length === 0) return true;
    const at = boxOf(child);
    const local = { left: at.left - bounds.left, top: at.top - bounds.top, right: at.right - bounds.left, bottom: at.bottom - bounds.top };
    return insideTile(local, box, round) && (more === null || !overlaps(at, more)) && child.scrollWidth <= child.clientWidth + 1;
  });
}

/**
 * A round tile's ⋯ button inside its circle: at the top right of the rectangle inside the circle
 * (tables.css places it there) when the button fits there whole; in a flatter tile, level with the
 * circle's middle, as far right as the curve allows. `cell`: the tile's box.
 */
export function placeMoreInCircle(cell: Size, button: Size, border = 2): { top: number; right: number } {
  const rx = cell.width / 2 - border;
  const ry = cell.height / 2 - border;
  const inside = (top: number, right: number) =>
    [cell.width - right - button.width, cell.width - right].every((x) =>
      [top, top + button.height].every((y) => ((x - cell.width / 2) / rx) ** 2 + ((y - cell.height / 2) / ry) ** 2 <= 1),
    );
  const corner = { top: cell.height * 0.1465 + border, right: cell.width * 0.1465 + border };
  if (inside(corner.top, corner.right)) return corner;
  const top = (cell.height - button.height) / 2;
  const level = Math.min(1, button.height / 2 / ry);
  return { top, right: Math.ceil(border + rx * (1 - Math.sqrt(1 - level ** 2)) + 1) };
}

interface Tile {
  linesBox: HTMLElement;
  more: HTMLElement | null;
}

/**
 * Fits tiles, in phases over all of them so the page lays out a few times in all rather than a few
 * times per tile (a floor of 60 tables draws at once): each tile's lines' box `linesBox` (children:
 * the name, `.floor-table-name`, then the other lines in the order they are kept, each with
 * `data-line`) shows the rule's best way that the page, drawing it, finds whole. `more`: the tile's
 * ⋯ button, if any. A tile not laid out (a test's DOM without layout) is left as it is.
 */
export function applyTileFits(tiles: readonly Tile[]): void {
  for (const { linesBox } of tiles) clearFit(linesBox);
  // The ⋯ of a round tile inside its circle (reads, then writes).
  const places = tiles.map(({ linesBox, more }) => {
    const cell = more?.parentElement;
    if (!more || !cell || linesBox.closest('.shape-round') === null) return null;
    return placeMoreInCircle({ width: cell.clientWidth, height: cell.clientHeight }, { width: more.offsetWidth, height: more.offsetHeight });
  });
  tiles.forEach(({ more }, i) => {
    const place = places[i];
    if (!more) return;
    if (place) {
      more.style.top = `${place.top}px`;
      more.style.right = `${place.right}px`;
    } else {
      more.style.removeProperty('top');
      more.style.removeProperty('right');
    }
  });
  const size = (el: HTMLElement): Size => {
    const rect = el.getBoundingClientRect();
    return { width: Math.max(rect.width, el.scrollWidth), height: rect.height };
  };
  // Everything measured at its full size (reads) ...
  const measured = tiles.flatMap(({ linesBox, more }) => {
    const bounds = boxOf(linesBox);
    const nameEl = linesBox.querySelector<HTMLElement>(':scope > .floor-table-name');
    if (!nameEl || bounds.right - bounds.left === 0 || bounds.bottom - bounds.top === 0) return [];
    const round = linesBox.closest('.shape-round') !== null;
    const others = [...linesBox.querySelectorAll<HTMLElement>(':scope > [data-line]')].filter((el) => (el.textContent ?? '').trim() !== '');
    const moreBox = more && more.getClientRects().length > 0 ? boxOf(more) : null;
    const measure: TileMeasure = {
      box: { width: linesBox.clientWidth, height: linesBox.clientHeight },
      round,
      nameChars: Array.from(nameEl.textContent ?? '').length,
      gap: Number.parseFloat(getComputedStyle(linesBox).rowGap) || 0,
      name: size(nameEl),
      lines: others.map((el) => ({ kind: el.dataset['line']!, ...size(el) })),
      more: moreBox ? { left: moreBox.left - bounds.left, top: moreBox.top - bounds.top, right: moreBox.right - bounds.left, bottom: moreBox.bottom - bounds.top } : null,
    };
    return [{ linesBox, elements: [nameEl, ...others], bounds, round, moreBox, measure }];
  });
  // ... and the lines that may break, broken (all written, then all read, then put back).
  const breakable = (el: HTMLElement) => BREAKABLE.includes(el.dataset['line'] ?? '') && /\s/.test((el.textContent ?? '').trim());
  for (const { linesBox, elements } of measured) if (elements.some(breakable)) linesBox.setAttribute('data-fit-break', BREAKABLE.join(' '));
  for (const { elements, measure } of measured) {
    measure.lines = measure.lines.map((line, i) => (breakable(elements[i + 1]!) ? { ...line, broken: size(elements[i + 1]!) } : line));
  }
  for (const { linesBox } of measured) linesBox.removeAttribute('data-fit-break');
  // Then each tile's ways to show it, best first.
  const work = measured.map((tile) => ({ ...tile, fits: tileFits(tile.measure), next: 0 }));
  // Each tile's next way shown (writes), then checked as drawn (reads), until each has one.
  let open = work;
  while (open.length > 0) {
    for (const tile of open) setFit(tile.linesBox, tile.elements, tile.fits[tile.next]!);
    open = open.filter((tile) => {
      const fit = tile.fits[tile.next]!;
      if (!fit.fits || fitsAsDrawn(tile.linesBox, tile.bounds, tile.round, tile.moreBox)) return false;
      tile.next += 1;
      return tile.next < tile.fits.length;
    });
  }
}

/** Tiles waiting to be fitted together once the page's current work is done (before it paints). */
const waiting = new Map<HTMLElement, HTMLElement | null>();

function fitSoon(linesBox: HTMLElement, more: HTMLElement | null): void {
  if (waiting.size === 0) {
    queueMicrotask(() => {
      const tiles = [...waiting].filter(([linesBox]) => linesBox.isConnected).map(([linesBox, more]) => ({ linesBox, more }));
      waiting.clear();
      applyTileFits(tiles);
    });
  }
  waiting.set(linesBox, more);
}

/**
 * Keeps a tile's lines fitted: when it is drawn, when its words change (`words`: everything it
 * says) and when its size does (a window resized, the floor squeezed by "Your tables"). The tiles
 * drawn together are fitted together, before the page paints.
 */
export function useTileFit(linesBox: RefObject<HTMLElement | null>, more: RefObject<HTMLElement | null> | null, words: string): void {
  useLayoutEffect(() => {
    const box = linesBox.current;
    if (!box) return;
    const run = () => fitSoon(box, more?.current ?? null);
    run();
    // A font that arrives later changes every line's width (a test's DOM may have no font set).
    const fonts = document.fonts as FontFaceSet | undefined;
    void fonts?.ready.then(run);
    if (typeof ResizeObserver === 'undefined' || !box.parentElement) return;
    const observer = new ResizeObserver(run);
    observer.observe(box.parentElement);
    return () => observer.disconnect();
  }, [linesBox, more, words]);
}
