// What the layout test looks for on the page as it is now, run inside the page (page.evaluate):
// - text cut off: an element with text whose content is wider than its box (scrollWidth >
//   clientWidth + 1; an ellipsis counts, it is cut text too), or text pushed past the edge of an
//   ancestor that clips it (sideways always; up or down only where that ancestor cannot scroll);
// - a scrolling list (several items) squeezed so short it cannot show its first item whole;
// - an interactive element outside the window with no scrollable ancestor to bring it into view;
// - the page itself scrolling sideways.
// Elements meant to scroll (overflow-x auto/scroll), form fields (their text scrolls inside) and
// visually hidden text are not text boxes for this purpose.
// Plain JavaScript in one function: page.evaluate sends its source text to the page.

export interface LayoutProblem {
  kind: 'text cut off' | 'clipped by an ancestor' | 'squeezed' | 'off screen' | 'page scrolls sideways';
  element: string;
  detail: string;
}

export function auditLayout(): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const SLACK = 1;
  const describe = (el: Element): string => {
    const id = el.getAttribute('data-testid') ?? el.id;
    const classes = [...el.classList].map((c) => `.${c}`).join('');
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
    return `${el.tagName.toLowerCase()}${id ? `#${id}` : ''}${classes} "${text}"`;
  };
  const scrollsX = (style: CSSStyleDeclaration) => style.overflowX === 'auto' || style.overflowX === 'scroll';
  const scrollsY = (style: CSSStyleDeclaration) => style.overflowY === 'auto' || style.overflowY === 'scroll';
  const hidden = (el: Element) => el.closest('.visually-hidden') !== null || !el.checkVisibility({ checkVisibilityCSS: true, checkOpacity: false });
  const isField = (el: Element) => el.matches('input, textarea, select, option');

  for (const el of document.querySelectorAll<HTMLElement>('body *')) {
    if (hidden(el) || isField(el) || (el.textContent ?? '').trim() === '') continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.display === 'contents') continue;
    // Its own text wider than its box (this is what an ellipsis hides).
    if (!scrollsX(style) && el.scrollWidth > el.clientWidth + SLACK) {
      problems.push({ kind: 'text cut off', element: describe(el), detail: `content ${el.scrollWidth}px wide in a box of ${el.clientWidth}px` });
    }
  }

  // Text pushed outside an ancestor that clips: the innermost elements that carry text.
  for (const el of document.querySelectorAll<HTMLElement>('body *')) {
    if (hidden(el) || isField(el)) continue;
    const ownText = [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '');
    if (!ownText) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    for (let ancestor = el.parentElement; ancestor && ancestor !== document.body; ancestor = ancestor.parentElement) {
      const style = getComputedStyle(ancestor);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = ancestor.getBoundingClientRect();
      const left = box.left + ancestor.clientLeft;
      const right = left + ancestor.clientWidth;
      const top = box.top + ancestor.clientTop;
      const bottom = top + ancestor.clientHeight;
      const sideways = style.overflowX !== 'visible' && (rect.left < left - SLACK || rect.right > right + SLACK);
      const upDown = style.overflowY !== 'visible' && !scrollsY(style) && (rect.top < top - SLACK || rect.bottom > bottom + SLACK);
      if (sideways || upDown) {
        problems.push({
          kind: 'clipped by an ancestor',
          element: describe(el),
          detail: `${Math.round(rect.left)}–${Math.round(rect.right)} × ${Math.round(rect.top)}–${Math.round(rect.bottom)} outside ${describe(ancestor).split(' "')[0]} (${Math.round(left)}–${Math.round(right)} × ${Math.round(top)}–${Math.round(bottom)})`,
        });
        break;
      }
    }
  }

  for (const el of document.querySelectorAll<HTMLElement>('body *')) {
    if (hidden(el) || !scrollsY(getComputedStyle(el)) || el.scrollHeight <= el.clientHeight + SLACK) continue;
    // A list: several items (a screen's scrolling area holds one, the screen).
    const [first, second] = [...el.children].filter((child) => !hidden(child)) as HTMLElement[];
    if (first && second && first.offsetHeight > el.clientHeight + SLACK) {
      problems.push({ kind: 'squeezed', element: describe(el), detail: `${el.clientHeight}px tall, its first item ${first.offsetHeight}px` });
    }
  }

  const interactive = 'button, a[href], input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
  for (const el of document.querySelectorAll<HTMLElement>(interactive)) {
    if (hidden(el)) continue;
    const rect = el.getBoundingClientRect();
    const outside = rect.left < -SLACK || rect.top < -SLACK || rect.right > window.innerWidth + SLACK || rect.bottom > window.innerHeight + SLACK;
    if (!outside) continue;
    let reachable = false;
    for (let ancestor = el.parentElement; ancestor && !reachable; ancestor = ancestor.parentElement) {
      const style = getComputedStyle(ancestor);
      reachable =
        (scrollsY(style) && ancestor.scrollHeight > ancestor.clientHeight + SLACK) || (scrollsX(style) && ancestor.scrollWidth > ancestor.clientWidth + SLACK);
    }
    if (!reachable) {
      problems.push({
        kind: 'off screen',
        element: describe(el),
        detail: `${Math.round(rect.left)}–${Math.round(rect.right)} × ${Math.round(rect.top)}–${Math.round(rect.bottom)} in a ${window.innerWidth}×${window.innerHeight} window`,
      });
    }
  }

  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth + SLACK) {
    problems.push({ kind: 'page scrolls sideways', element: 'html', detail: `${page.scrollWidth}px wide in a ${window.innerWidth}px window` });
  }
  return problems;
}
