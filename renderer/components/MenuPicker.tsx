// The menu as the register picks from it: the search box (names, barcodes, PLUs) with what Enter
// would do said under it, the categories and the grid of tiles. Store mode's "Add items" picks from
// the same component, so the two cannot drift apart again.
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import type { MenuItem, MenuSnapshot } from '../../bridge/contract';
import { enterAction, indexMenu, searchMenu } from '../../bridge/menu-search';
import { beepUnknownCode } from '../lib/beep';
import { FieldError } from './FieldError';
import { GRID_PAGE, MenuGrid } from './MenuGrid';

/** Memoised: the register draws it again only when what it shows changes, not with each change of the ticket. */
export const MenuPicker = memo(function MenuPicker({
  menu,
  query,
  onQueryChange,
  categoryId,
  onCategoryChange,
  inputId,
  label,
  placeholder,
  inputRef,
  autoFocus = false,
  resetKey,
  onPick,
  onKeyDown,
  onAdded,
}: {
  menu: MenuSnapshot;
  /** What is typed and the category shown, kept by the caller: the dialog's picker is unmounted while an item's choices are asked, the register clears them when left. */
  query: string;
  onQueryChange: (query: string) => void;
  categoryId: string | null;
  onCategoryChange: (id: string | null) => void;
  /** The search box's id; a generated one when left out. */
  inputId?: string;
  label: string;
  placeholder: string;
  /** The search box, for a caller that gives it the focus (the register: F2, '/', after a dialog). */
  inputRef?: RefObject<HTMLInputElement | null>;
  /** The box takes the focus when shown (and is a dialog's first focus): the menu may arrive after the dialog opened. */
  autoFocus?: boolean;
  /** When it changes, the grid is back to its first page and the message under the box is gone. */
  resetKey?: unknown;
  /** A tile tapped, or Enter on the best match. */
  onPick: (item: MenuItem) => void;
  /** Called first with each key in the box; a key whose default it prevents is left to it. */
  onKeyDown?: (event: ReactKeyboardEvent<HTMLInputElement>) => void;
  /** After Enter added the best match. */
  onAdded?: () => void;
}) {
  const [limit, setLimit] = useState(GRID_PAGE);
  /** Why Enter in the search box added nothing (sold out, unknown code): shown under the box. */
  const [searchError, setSearchError] = useState<string | null>(null);
  const [seenReset, setSeenReset] = useState(resetKey);
  if (seenReset !== resetKey) {
    setSeenReset(resetKey);
    setLimit(GRID_PAGE);
    setSearchError(null);
  }
  const ownId = useId();
  const statusId = useId();
  const ownRef = useRef<HTMLInputElement>(null);
  const boxRef = inputRef ?? ownRef;
  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (autoFocus) boxRef.current?.focus();
  }, [autoFocus, boxRef]);

  const index = useMemo(() => indexMenu(menu.items), [menu.items]);
  const matches = useMemo(() => searchMenu(index, query, categoryId), [index, query, categoryId]);
  // The same array while nothing is cut off, so the memoised grid is not drawn again.
  const shown = useMemo(() => (matches.length > limit ? matches.slice(0, limit) : matches), [matches, limit]);
  const showMore = useCallback(() => setLimit((n) => n + GRID_PAGE), []);
  const highlighted = query.trim() === '' ? undefined : matches[0];

  const onKey = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      const action = enterAction(matches, query);
      // A refusal keeps what was typed, selected: the cashier sees it, and the next scan replaces it.
      const refuse = (message: string) => {
        setSearchError(message);
        event.currentTarget.select();
      };
      if (action.kind === 'add') {
        onPick(action.item);
        onAdded?.();
        onQueryChange('');
      } else if (action.kind === 'sold_out') {
        refuse(`${action.item.name} is sold out (86'd). Offer something else.`);
      } else if (action.kind === 'unknown_code') {
        beepUnknownCode();
        refuse(`No item with barcode ${action.code}. Check the code, or give the item this barcode / PLU in Menu.`);
      }
    } else if (event.key === 'Escape' && query !== '') {
      // Clears the search only: a dialog around it stays open.
      event.preventDefault();
      onQueryChange('');
      setSearchError(null);
      setLimit(GRID_PAGE);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      rootRef.current?.querySelector<HTMLElement>('.menu-grid .tile:not([disabled])')?.focus();
    }
  };

  return (
    // Its own element, to find its own tiles, without a box of its own: the caller's layout applies to its parts.
    <div ref={rootRef} style={{ display: 'contents' }}>
      <div className="search-row">
        <label className="visually-hidden" htmlFor={inputId ?? ownId}>
          {label}
        </label>
        <input
          id={inputId ?? ownId}
          ref={boxRef}
          className="search"
          type="search"
          placeholder={placeholder}
          autoComplete="off"
          value={query}
          onChange={(event) => {
            onQueryChange(event.target.value);
            setSearchError(null);
            setLimit(GRID_PAGE);
          }}
          onKeyDown={onKey}
          aria-describedby={searchError || highlighted ? statusId : undefined}
          aria-invalid={searchError ? true : undefined}
          {...(autoFocus ? { 'data-autofocus': true } : {})}
        />
        {searchError ? (
          <FieldError id={statusId} message={searchError} />
        ) : (
          <p id={statusId} className="search-hint muted">
            {highlighted ? (highlighted.available ? `Enter adds ${highlighted.name}` : `${highlighted.name} is sold out`) : null}
          </p>
        )}
      </div>
      <nav className="categories" aria-label="Categories">
        <button type="button" className="category" aria-pressed={categoryId === null} onClick={() => onCategoryChange(null)}>
          All
        </button>
        {menu.categories.map((category) => (
          <button key={category.id} type="button" className="category" aria-pressed={categoryId === category.id} onClick={() => onCategoryChange(category.id)}>
            {category.name}
          </button>
        ))}
      </nav>
      <MenuGrid items={shown} left={matches.length - shown.length} query={query} highlighted={highlighted} currency={menu.currency} onAdd={onPick} onMore={showMore} />
    </div>
  );
});
