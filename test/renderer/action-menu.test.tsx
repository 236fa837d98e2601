// @vitest-environment happy-dom
// The menu button (renderer/components/ActionMenu.tsx) on its own: what it says to assistive technology
// (a button with a menu, expanded or not; a menu of items), the arrows and Home/End moving through
// the items (a dimmed item among them, never chosen), Escape and Tab closing it with the focus back on
// the button, a press outside closing it, and a chosen item closing it before its action runs.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MenuButton } from '../../renderer/components/ActionMenu';

afterEach(cleanup);

function renderMenu(chosen: string[], disabled = false) {
  const actions = ['Details', 'Discount', 'Mark fulfilled', 'Cancel order'].map((label) => ({
    label,
    disabled: disabled && label === 'Mark fulfilled',
    onSelect: () => chosen.push(label),
  }));
  render(
    <>
      <MenuButton label="More…" accessibleLabel="More actions for B1" actions={actions} />
      <button type="button">Elsewhere</button>
    </>,
  );
  return screen.getByRole('button', { name: 'More actions for B1' });
}

const focused = () => document.activeElement?.textContent;

describe('the menu button', () => {
  it('says it has a menu; ArrowDown opens it on the first item, the arrows wrap, Home and End jump, Escape closes it back on the button', () => {
    const button = renderMenu([]);
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: 'More actions for B1' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Details', 'Discount', 'Mark fulfilled', 'Cancel order']);
    // Items are reached by the arrows, not by Tab.
    expect(within(menu).getAllByRole('menuitem').every((item) => item.tabIndex === -1)).toBe(true);
    expect(focused()).toBe('Details');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focused()).toBe('Discount');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(focused()).toBe('Cancel order');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(focused()).toBe('Details');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(focused()).toBe('Cancel order');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(focused()).toBe('Details');

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);

    // ArrowUp opens it on the last item; Tab closes it, from the button.
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(focused()).toBe('Cancel order');
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('a chosen item closes the menu, focus on the button, then runs; a press outside closes it and runs nothing', () => {
    const chosen: string[] = [];
    const button = renderMenu(chosen);
    fireEvent.click(button);
    expect(focused()).toBe('Details');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    // Enter or Space on a focused button is its click.
    fireEvent.click(document.activeElement!);
    expect(chosen).toEqual(['Discount']);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    expect(screen.getByRole('menu')).toBeTruthy();
    // A second press on the button closes it too.
    fireEvent.click(button);
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(button);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(chosen).toEqual(['Discount']);
  });

  it('a dimmed item is shown and reached, said to be unavailable, and never chosen', () => {
    const chosen: string[] = [];
    const button = renderMenu(chosen, true);
    fireEvent.click(button);
    const dimmed = screen.getByRole('menuitem', { name: 'Mark fulfilled' });
    expect(dimmed.getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(dimmed);
    fireEvent.click(dimmed);
    expect(chosen).toEqual([]);
    expect(screen.getByRole('menu')).toBeTruthy();
  });
});
