// What the browser benches share: the raw limit of a DOM change in the page under test.
import type { Page } from 'playwright-core';

/** Appends one list item and lays out, `count` times in `page` (a fresh list every 20): per append, in ms. */
export async function measureBareDomAppend(page: Page, count: number): Promise<number[]> {
  return page.evaluate((n) => {
    const list = document.createElement('ol');
    document.body.appendChild(list);
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      if (i % 20 === 0) list.replaceChildren();
      const start = performance.now();
      const li = document.createElement('li');
      li.textContent = `item ${i}`;
      list.appendChild(li);
      void list.offsetHeight;
      samples.push(performance.now() - start);
    }
    list.remove();
    return samples;
  }, count);
}
