// The register's menu tiles: the items matching the search and category, a page at a time, the
// one Enter would add highlighted. Store mode's "Add items" picks from the same grid.
import { memo } from 'react';
import type { MenuItem } from '../../bridge/contract';
import { money } from '../lib/format';

/** A touch grid stays readable and every keystroke stays fast: the rest is one tap away. */
export const GRID_PAGE = 60;

/** The last tile while items are left: how many it shows, of how many are left ("Show 60 more of the 75 left", "Show the last 12 items"). */
function moreLabel(left: number): string {
  if (left <= GRID_PAGE) return left === 1 ? 'Show the last item' : `Show the last ${left} items`;
  return `Show ${GRID_PAGE} more of the ${left} left`;
}

/** `next`: the tile Enter in the search box acts on, highlighted so Enter never surprises. */
const MenuTile = memo(function MenuTile({ item, currency, onAdd, next }: { item: MenuItem; currency: string; onAdd: (item: MenuItem) => void; next: boolean }) {
  const status = !item.available ? 'Sold out' : item.lowStock ? 'Low stock' : null;
  return (
    <button
      type="button"
      className={`tile${item.available ? '' : ' tile-out'}${item.lowStock ? ' tile-low' : ''}${next ? ' tile-next' : ''}`}
      disabled={!item.available}
      onClick={() => onAdd(item)}
      data-item-id={item.id}
    >
      <span className="tile-name">{item.name}</span>
      <span className="tile-foot">
        <span className="tile-price">{money(item.price, currency)}</span>
        {status ? <span className="tile-badge">{status}</span> : null}
      </span>
    </button>
  );
});

/**
 * The tiles and the "show more" tile: drawn again only when what they show changes, not with each
 * change of the ticket (opening a check, adding a line).
 */
export const MenuGrid = memo(function MenuGrid({
  items,
  left,
  query,
  highlighted,
  currency,
  onAdd,
  onMore,
}: {
  items: readonly MenuItem[];
  /** How many more match than are shown. */
  left: number;
  query: string;
  highlighted: MenuItem | undefined;
  currency: string;
  onAdd: (item: MenuItem) => void;
  onMore: () => void;
}) {
  return (
    <div className="menu-grid" role="group" aria-label={query ? `Items matching ${query}` : 'Items'}>
      {items.map((item) => (
        <MenuTile key={item.id} item={item} currency={currency} onAdd={onAdd} next={item === highlighted} />
      ))}
      {items.length === 0 ? (
        <p className="muted empty grid-message">
          {query.trim() ? `No item matches “${query.trim()}”. Check the spelling or pick a category.` : 'No items here yet. The menu appears once the terminal has synced.'}
        </p>
      ) : null}
      {left > 0 ? (
        <button type="button" className="tile tile-more" onClick={onMore}>
          {moreLabel(left)}
        </button>
      ) : null}
    </div>
  );
});
