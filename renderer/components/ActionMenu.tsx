// A button that opens a short list of actions (the ARIA menu button pattern; not the food menu): for a row with more
// actions than fit beside it. The button says it has a menu and whether it is open; the arrows,
// Home and End move through the items, Enter or Space chooses one, Escape closes the menu and gives
// the button its focus back, and a press outside it (or Tab away) closes it. 44 px targets throughout.
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

export interface MenuAction {
  label: string;
  onSelect: () => void;
  /** Shown, and said to be unavailable ("dimmed"), but not chosen. */
  disabled?: boolean;
}

/** The focus to give the items when the menu opens: the first one, or the last (ArrowUp on the button). */
type Opening = 'first' | 'last';

export function MenuButton({ label, accessibleLabel, actions }: { label: string; accessibleLabel?: string; actions: readonly MenuAction[] }) {
  const [open, setOpen] = useState<Opening | null>(null);
  const buttonId = useId();
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const menu = useRef<HTMLDivElement>(null);

  // Above the button when the window ends below it and there is room above (the last rows of a list), before it is painted.
  useLayoutEffect(() => {
    const list = menu.current;
    if (open === null || !list || !button.current) return;
    const { top, bottom } = button.current.getBoundingClientRect();
    // Its height and the 4 px between it and the button.
    const needs = list.offsetHeight + 4;
    list.classList.toggle('action-menu-up', needs > window.innerHeight - bottom && needs <= top);
  }, [open]);

  useEffect(() => {
    if (open === null) return;
    const list = items.current.filter((item) => item !== null);
    (open === 'first' ? list[0] : list[list.length - 1])?.focus();
    // A press anywhere else closes it, leaving the focus where that press put it.
    const outside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    setOpen(null);
    button.current?.focus();
  };
  const choose = (action: MenuAction) => {
    if (action.disabled) return;
    // The button has the focus when the action opens its dialog: the dialog gives it back there.
    close();
    action.onSelect();
  };
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items.current.filter((item) => item !== null);
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const targets: Partial<Record<string, number>> = { ArrowDown: (at + 1) % list.length, ArrowUp: (at - 1 + list.length) % list.length, Home: 0, End: list.length - 1 };
    const to = targets[event.key];
    if (event.key === 'Escape') {
      event.preventDefault();
      // Not the dialog's Escape, when the row is in one.
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') {
      // Tab goes on from the button, as if the menu had not been opened.
      close();
    } else if (to !== undefined) {
      event.preventDefault();
      list[to]?.focus();
    }
  };
  const openFromKeys = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  return (
    <div className="action-menu" ref={wrapper}>
      <button
        ref={button}
        id={buttonId}
        type="button"
        className="secondary"
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open !== null ? menuId : undefined}
        aria-label={accessibleLabel}
        onClick={() => setOpen(open === null ? 'first' : null)}
        onKeyDown={openFromKeys}
      >
        {label}
      </button>
      {open !== null ? (
        <div ref={menu} className="action-menu-list" role="menu" id={menuId} aria-labelledby={buttonId} onKeyDown={move}>
          {actions.map((action, i) => (
            <button
              key={action.label}
              ref={(item) => {
                items.current[i] = item;
              }}
              type="button"
              role="menuitem"
              tabIndex={-1}
              aria-disabled={action.disabled ? true : undefined}
              onClick={() => choose(action)}
            >
              {action.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
