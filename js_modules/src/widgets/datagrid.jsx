// <DataGrid columns rows rowKey height searchPlaceholder actions onAction onRowClick emptyText
// locale rowCountLabel moreLabel selectable onSelectionChange columnsLabel storageKey onViewChange
// total page pageSize onPageChange pageLabel previousLabel nextLabel keepSelection clearSelectionLabel
// dropSelection />:
// a sortable, searchable, virtualized Bootstrap table. Python sends the rows once; sorting, searching,
// choosing columns, selecting and scrolling 10,000 rows then stay in the browser, and only what Python
// must know (the selection, the view for an export) goes back, as plain strings.
// Paged (`total` given): `rows` are one page of `total`, which Python sorted and searched (it reads the sort and
// the search from onViewChange); the footer pages with onPageChange(page number as text). Until Python's answer
// to a page, sort or search arrives the table is marked busy (aria-busy, dimmed after a moment, a bar on top), so
// a slow query never looks like a click that did nothing.
// keepSelection (paged): rows chosen on one page stay chosen on the others, and an initial selection holds rows the
// page does not show; onSelectionChange then reports every chosen row, on any page (a bulk page acts on them all).
// The footer's "Clear selection" (clearSelectionLabel) drops every chosen row, seen or not; dropSelection
// ({revision, keys}) lets Python drop rows (keys null: all of them) each time its revision changes.
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import {
  columnFilteringFeature,
  createFilteredRowModel,
  createSortedRowModel,
  globalFilteringFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { adoptCss } from '../lib/css.js';
import {
  NUMERIC_TYPES, VARIANTS, badgeOf, makeComparator, makeFormatters, sortsDescendingFirst,
} from '../lib/format.js';
import { useChangeEffect, useLatest } from '../lib/hooks.js';

export { bind } from '../lib/bind.js';

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  columnFilteringFeature,
  globalFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
});

const UNSORTABLE_TYPES = new Set(['toggle']);
const ROW_HEIGHT_ESTIMATE = 38;
const DEFAULT_COLUMN_WIDTH = 140;
const ICON = /^bi-[a-z0-9-]+$/;
const EMPTY_ROWS = [];

adoptCss('dsp-datagrid', `
.dsp-grid { border: 1px solid var(--bs-border-color); border-radius: var(--bs-border-radius-lg);
  background: var(--bs-body-bg); overflow: hidden; }
.dsp-grid-toolbar { display: flex; align-items: center; gap: .5rem; padding: .5rem .75rem;
  border-bottom: 1px solid var(--bs-border-color); }
.dsp-grid-search { position: relative; flex: 0 1 18rem; }
.dsp-grid-search .bi-search { position: absolute; left: .6rem; top: 50%; transform: translateY(-50%);
  color: var(--bs-secondary-color); font-size: .8rem; pointer-events: none; }
.dsp-grid-search input { padding-left: 1.9rem; padding-right: 1.9rem; }
.dsp-grid-search input::-webkit-search-cancel-button { display: none; }
.dsp-grid-search .dsp-grid-clear { position: absolute; right: .25rem; top: 50%; transform: translateY(-50%);
  border: 0; background: none; color: var(--bs-secondary-color); padding: 0 .35rem; line-height: 1; }
.dsp-grid-scroll { overflow: auto; position: relative; }
.dsp-grid-scroll[aria-busy="true"] tbody { opacity: .5; transition: opacity .15s ease .2s; }
.dsp-grid-scroll[aria-busy="true"]::before { content: ""; position: sticky; top: 0; left: 0; display: block;
  height: 2px; margin-bottom: -2px; z-index: 3; background: var(--dsp-primary, var(--bs-primary));
  animation: dsp-grid-busy 1.2s ease-in-out .2s infinite both; }
@keyframes dsp-grid-busy { from { transform: scaleX(0); transform-origin: left; }
  50% { transform: scaleX(1); transform-origin: left; } 51% { transform-origin: right; }
  to { transform: scaleX(0); transform-origin: right; } }
.dsp-grid table { table-layout: fixed; width: 100%; margin: 0; }
.dsp-grid thead th { position: sticky; top: 0; z-index: 2; --bs-table-bg: var(--bs-tertiary-bg);
  box-shadow: inset 0 -1px 0 var(--bs-border-color); border-bottom: 0; padding: .55rem .75rem;
  font-size: .75rem; font-weight: 600; letter-spacing: .03em; text-transform: uppercase;
  color: var(--bs-secondary-color); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.dsp-grid .dsp-grid-sort { all: unset; box-sizing: border-box; cursor: pointer; display: inline-flex;
  align-items: center; gap: .3rem; max-width: 100%; }
.dsp-grid .dsp-grid-sort:focus-visible { outline: 2px solid var(--dsp-primary, var(--bs-primary));
  outline-offset: 2px; border-radius: 2px; }
.dsp-grid .dsp-grid-sort .bi { font-size: .7rem; opacity: .35; }
.dsp-grid .dsp-grid-sort:hover .bi, .dsp-grid th[aria-sort] .dsp-grid-sort .bi { opacity: 1; }
.dsp-grid th[aria-sort] { color: var(--bs-emphasis-color); }
.dsp-grid tbody td { padding: .375rem .75rem; font-size: .875rem; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.dsp-grid tbody tr:last-child td { border-bottom: 0; }
.dsp-grid .dsp-num { text-align: right; font-variant-numeric: tabular-nums; }
.dsp-grid th.dsp-num .dsp-grid-sort { flex-direction: row-reverse; }
.dsp-grid .dsp-neg { color: var(--bs-danger-text-emphasis); }
.dsp-grid .dsp-grid-actions { text-align: right; white-space: nowrap; overflow: visible; }
.dsp-grid .dsp-grid-actions .btn { --bs-btn-padding-y: .15rem; --bs-btn-padding-x: .4rem;
  --bs-btn-font-size: .8125rem; margin-left: .25rem; }
.dsp-grid tr.dsp-grid-clickable { cursor: pointer; }
.dsp-grid-menu { z-index: 1060; min-width: 12rem; font-size: .875rem; }
.dsp-grid .dsp-grid-spacer td { padding: 0; border: 0; }
.dsp-grid .dsp-grid-empty td { text-align: center; color: var(--bs-secondary-color); padding: 3rem 1rem;
  white-space: normal; }
.dsp-grid .dsp-grid-empty .bi { display: block; font-size: 2rem; opacity: .4; margin-bottom: .25rem; }
.dsp-grid .dsp-grid-check { width: 2.25rem; text-align: center; padding-left: .5rem; padding-right: .25rem; }
.dsp-grid .dsp-grid-check .form-check-input { margin: 0; cursor: pointer; }
.dsp-grid .dsp-grid-toggle { display: flex; align-items: center; gap: .4rem; margin: 0; padding-left: 2.5em; }
.dsp-grid .dsp-grid-toggle .form-check-input { cursor: pointer; }
.dsp-grid tr.dsp-grid-selected > td { --bs-table-bg-state: var(--bs-primary-bg-subtle); }
.dsp-grid-columns { z-index: 1060; min-width: 14rem; max-height: 22rem; overflow-y: auto; font-size: .875rem; }
.dsp-grid-columns .form-check { margin: 0; padding: .3rem 1rem .3rem 2.4rem; }
.dsp-grid-pager { display: inline-flex; align-items: center; gap: .5rem; }
.dsp-grid-pager .btn { --bs-btn-padding-y: 0; --bs-btn-padding-x: .55rem; --bs-btn-font-size: 1rem;
  line-height: 1.2; }
.dsp-grid .dsp-grid-clear-selection { --bs-btn-padding-y: 0; --bs-btn-padding-x: .25rem; --bs-btn-font-size: .8125rem;
  margin-left: .5rem; vertical-align: baseline; text-decoration: none; }
.dsp-grid-footer { display: flex; align-items: center; justify-content: space-between; gap: .5rem;
  padding: .4rem .75rem; border-top: 1px solid var(--bs-border-color); background: var(--bs-tertiary-bg);
  font-size: .8125rem; color: var(--bs-secondary-color); }
`);

// A switch (type "toggle", value {on, enabled, label}): flipping it asks Python to run the column's
// `action` for the row; the switch shows the new state once Python sends the row back.
function ToggleCell({ column, value, rowKeyValue, onActionRef }) {
  const on = Boolean(value && value.on);
  const enabled = Boolean(value && value.enabled);
  const label = String((value && value.label) || column.label);
  return (
    <td onClick={(event) => event.stopPropagation()}>
      <div className="form-check form-switch dsp-grid-toggle">
        <input
          className="form-check-input"
          type="checkbox"
          role="switch"
          checked={on}
          disabled={!enabled}
          aria-label={label}
          title={label}
          data-action={column.action}
          onChange={() => onActionRef.current?.(column.action, rowKeyValue)}
        />
      </div>
    </td>
  );
}

function Cell({ column, value, format, rowKeyValue, onActionRef }) {
  const type = column.type || 'text';
  if (type === 'toggle') {
    return <ToggleCell column={column} value={value} rowKeyValue={rowKeyValue} onActionRef={onActionRef} />;
  }
  if (type === 'badge') {
    const { text, variant } = badgeOf(value);
    return <td><span className={`badge text-bg-${variant}`}>{text}</span></td>;
  }
  const text = format.cell(type, value);
  const numeric = NUMERIC_TYPES.has(type);
  const negative = type === 'money' && text.startsWith('-');
  const className = [numeric && 'dsp-num', negative && 'dsp-neg'].filter(Boolean).join(' ');
  return <td className={className || undefined} title={numeric ? undefined : text}>{text}</td>;
}

function SortIcon({ direction }) {
  const icon = direction === 'asc' ? 'bi-arrow-up' : direction === 'desc' ? 'bi-arrow-down' : 'bi-arrow-down-up';
  return <i className={`bi ${icon}`} aria-hidden="true" />;
}

// An action with `when: "field"` shows only on rows whose `field` is truthy (e.g. "can_enter").
// Actions with `menu: true` go into the row's "more" menu instead of a button of their own.
// Inline buttons stand in slots (`slot`, else the id; enable and disable share one) so that a button
// sits in the same place on every row: a slot this row has no button for keeps an invisible one.
const slotOf = (action) => action.slot || action.id;
const shownOn = (actions, row) => actions.filter((action) => !action.when || row[action.when]);

// The slots some row fills, in the actions' order, and whether some row has a menu.
function layoutOf(actions, rows) {
  const used = new Set();
  let menu = false;
  for (const row of rows) {
    for (const action of shownOn(actions, row)) {
      if (action.menu) menu = true;
      else used.add(slotOf(action));
    }
  }
  const slots = [...new Set(actions.filter((a) => !a.menu).map(slotOf))].filter((slot) => used.has(slot));
  return { slots, menu };
}

function ActionButtons({ actions, layout, row, rowKeyValue, onActionRef, label }) {
  const shown = shownOn(actions, row);
  const run = (event, action) => {
    event.stopPropagation();
    onActionRef.current?.(action.id, rowKeyValue);
  };
  const menu = shown.filter((action) => action.menu);
  return (
    <td className="dsp-grid-actions">
      {layout.slots.map((slot) => {
        const action = shown.find((a) => !a.menu && slotOf(a) === slot);
        if (!action) return <SlotFiller key={slot} />;
        const variant = VARIANTS.has(action.variant) ? action.variant : 'secondary';
        const icon = ICON.test(action.icon || '') ? action.icon : null;
        return (
          <button
            key={slot}
            type="button"
            className={`btn btn-sm btn-outline-${variant}`}
            title={action.label}
            aria-label={action.label}
            data-action={action.id}
            onClick={(event) => run(event, action)}
          >
            {icon ? <i className={`bi ${icon}`} aria-hidden="true" /> : action.label}
          </button>
        );
      })}
      {menu.length > 0 ? <RowMenu actions={menu} label={label} onPick={run} /> : layout.menu && <SlotFiller />}
    </td>
  );
}

// An invisible icon button: exactly as wide as the ones beside it.
function SlotFiller() {
  return (
    <button type="button" className="btn btn-sm btn-outline-secondary invisible" tabIndex={-1} aria-hidden="true" disabled>
      <i className="bi bi-dot" />
    </button>
  );
}

// The "more" button and its menu. The menu is fixed to the viewport so the grid's scroll box cannot
// clip it; scrolling, a click elsewhere or Escape closes it.
function RowMenu({ actions, label, onPick }) {
  const [at, setAt] = useState(null);
  const buttonRef = useRef(null);
  useEffect(() => {
    if (!at) return undefined;
    const close = () => setAt(null);
    const onKey = (event) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('click', close);
    window.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [at]);
  const toggle = (event) => {
    event.stopPropagation();
    if (at) {
      setAt(null);
      return;
    }
    const rect = buttonRef.current.getBoundingClientRect();
    const below = window.innerHeight - rect.bottom > 40 * actions.length + 16;
    setAt({ right: window.innerWidth - rect.right, ...(below ? { top: rect.bottom + 4 } : { bottom: window.innerHeight - rect.top + 4 }) });
  };
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-sm btn-outline-secondary"
        title={label}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={at ? 'true' : 'false'}
        data-action="more"
        onClick={toggle}
      >
        <i className="bi bi-three-dots" aria-hidden="true" />
      </button>
      {at && (
        <div className="dropdown-menu show shadow-sm dsp-grid-menu" role="menu" style={{ position: 'fixed', ...at }}>
          {actions.map((action) => {
            const icon = ICON.test(action.icon || '') ? action.icon : null;
            const danger = action.variant === 'danger';
            return (
              <button
                key={action.id}
                type="button"
                role="menuitem"
                className={`dropdown-item${danger ? ' text-danger' : ''}`}
                data-action={action.id}
                onClick={(event) => {
                  setAt(null);
                  onPick(event, action);
                }}
              >
                {icon && <i className={`bi ${icon} me-2`} aria-hidden="true" />}
                {action.label}
              </button>
            );
          })}
        </div>
      )}
    </>
  );
}

// Which columns are hidden: the user's last choice for this grid (kept in the browser under
// `storageKey`), else the columns marked `hidden`.
function initialHidden(columns, storageKey) {
  if (storageKey) {
    try {
      const saved = JSON.parse(window.localStorage.getItem(`dsp-grid:${storageKey}`) || 'null');
      if (Array.isArray(saved)) return new Set(saved.map(String));
    } catch {
      // unreadable or blocked storage: fall back to the defaults
    }
  }
  return new Set(columns.filter((c) => c.hidden).map((c) => String(c.key)));
}

// The "Columns" button and its menu of checkboxes; at least one column always stays.
function ColumnChooser({ columns, hidden, setHidden, label }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return undefined;
    const close = () => setOpen(false);
    const onKey = (event) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('click', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const shown = columns.filter((c) => !hidden.has(String(c.key))).length;
  return (
    <div className="position-relative ms-auto" onClick={(event) => event.stopPropagation()}>
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        aria-haspopup="menu"
        aria-expanded={open ? 'true' : 'false'}
        data-action="choose-columns"
        onClick={() => setOpen(!open)}
      >
        <i className="bi bi-layout-three-columns me-1" aria-hidden="true" />
        {label}
      </button>
      {open && (
        <div className="dropdown-menu dropdown-menu-end show shadow-sm dsp-grid-columns" style={{ right: 0, left: 'auto' }}>
          {columns.map((column) => {
            const key = String(column.key);
            const visible = !hidden.has(key);
            return (
              <label className="form-check dropdown-item" key={key}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  checked={visible}
                  disabled={visible && shown === 1}
                  data-column={key}
                  onChange={() => {
                    const next = new Set(hidden);
                    if (visible) next.add(key);
                    else next.delete(key);
                    setHidden(next);
                  }}
                />
                <span className="form-check-label">{column.label}</span>
              </label>
            );
          })}
        </div>
      )}
    </div>
  );
}

export function DataGrid({
  columns = [],
  rows = EMPTY_ROWS,
  rowKey = 'id',
  height = 480,
  searchPlaceholder,
  actions = [],
  onAction,
  onRowClick,
  emptyText = 'No records',
  locale,
  rowCountLabel = '{count} rows',
  moreLabel = 'More actions',
  selectable = false,
  initialSelection = EMPTY_ROWS,
  onSelectionChange,
  selectAllLabel = 'Select all',
  selectRowLabel = 'Select',
  selectedLabel = '{count} selected',
  columnsLabel,
  storageKey,
  onViewChange,
  total: pagedTotal,
  page = 1,
  pageSize = 50,
  onPageChange,
  pageLabel = '{page} / {pages}',
  previousLabel = 'Previous page',
  nextLabel = 'Next page',
  keepSelection = false,
  clearSelectionLabel,
  dropSelection,
}) {
  const paged = typeof pagedTotal === 'number';
  const onPageRef = useLatest(onPageChange);
  const onActionRef = useLatest(onAction);
  const onRowClickRef = useLatest(onRowClick);
  const onSelectionRef = useLatest(onSelectionChange);
  const onViewRef = useLatest(onViewChange);
  const clickable = typeof onRowClick === 'function';
  const format = useMemo(() => makeFormatters(locale), [locale]);
  // Which button slots the rows use, and so how wide the action column must be.
  const actionsJson = JSON.stringify(actions);
  const actionLayout = useMemo(
    () => layoutOf(JSON.parse(actionsJson), Array.isArray(rows) ? rows : EMPTY_ROWS),
    [actionsJson, rows],
  );
  const buttonCount = actionLayout.slots.length + (actionLayout.menu ? 1 : 0);
  // New (equal) arrays arrive with every server update: key memos on content.
  const columnsJson = JSON.stringify(columns);
  const allColumns = useMemo(() => JSON.parse(columnsJson), [columnsJson]);
  const [hidden, setHiddenState] = useState(() => initialHidden(allColumns, storageKey));
  const setHidden = (next) => {
    setHiddenState(next);
    if (storageKey) {
      try {
        window.localStorage.setItem(`dsp-grid:${storageKey}`, JSON.stringify([...next]));
      } catch {
        // storage full or blocked: the choice holds for this page only
      }
    }
  };
  const visibleColumns = useMemo(
    () => {
      const shown = allColumns.filter((c) => !hidden.has(String(c.key)));
      return shown.length ? shown : allColumns.slice(0, 1);
    },
    [allColumns, hidden],
  );

  const columnDefs = useMemo(
    () =>
      visibleColumns.map((column) => ({
        id: String(column.key),
        accessorFn: (row) => row[column.key] ?? undefined,
        header: column.label,
        enableSorting: column.sortable !== false && !UNSORTABLE_TYPES.has(column.type),
        sortFn: makeComparator(column.type, format.collator),
        sortDescFirst: sortsDescendingFirst(column.type),
        sortUndefined: 'last',
      })),
    [visibleColumns, format],
  );

  // Search matches what the user sees (formatted text) and the raw values, in any column.
  // The table asks per (row, column); the answer is per row, from a cached lower-case text.
  const globalFilterFn = useMemo(() => {
    const haystacks = new WeakMap();
    const haystackOf = (original) => {
      let text = haystacks.get(original);
      if (text === undefined) {
        text = visibleColumns
          .map((c) => {
            const raw = original[c.key];
            const shown = format.cell(c.type, raw);
            return typeof raw === 'object' ? shown : `${shown}\u0000${raw ?? ''}`;
          })
          .join('\u0000')
          .toLowerCase();
        haystacks.set(original, text);
      }
      return text;
    };
    // All whitespace-separated terms must occur somewhere in the row ("acme paused").
    let lastQuery = null;
    let terms = [];
    return (row, _columnId, query) => {
      if (query !== lastQuery) {
        lastQuery = query;
        terms = query.split(/\s+/).filter(Boolean);
      }
      const text = haystackOf(row.original);
      return terms.every((term) => text.includes(term));
    };
  }, [visibleColumns, format]);

  const [sorting, setSorting] = useState([]);
  const [query, setQuery] = useState('');
  // Paged: waiting for Python's rows after asking for another page, sort or search. Any answer from Python (new
  // rows, total or page: every server update brings new arrays) ends the wait.
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setBusy(false);
  }, [rows, pagedTotal, page]);
  const askPage = (number) => {
    setBusy(true);
    onPageRef.current?.(String(number));
  };
  // Paged, each search is a query on the server (the view goes to Python at once, as an export reads it; a newer
  // search cancels the query of the one before).
  const deferredQuery = useDeferredValue(query.trim().toLowerCase());

  const table = useTable({
    features,
    columns: columnDefs,
    data: Array.isArray(rows) ? rows : EMPTY_ROWS,
    state: { sorting, globalFilter: paged ? '' : deferredQuery },
    manualSorting: paged,
    manualFiltering: paged,
    onSortingChange: setSorting,
    onGlobalFilterChange: () => {},
    globalFilterFn,
    getColumnCanGlobalFilter: () => true,
    getRowId: (row, index) => (row[rowKey] == null ? `#${index}` : String(row[rowKey])),
  });

  const tableRows = table.getRowModel().rows;
  const total = paged ? pagedTotal : Array.isArray(rows) ? rows.length : 0;
  const pages = paged ? Math.max(1, Math.ceil(pagedTotal / (Number(pageSize) || 50))) : 1;

  // Selection: row ids (strings). Rows that left (a reload, another page) leave the selection too, unless kept.
  const [selected, setSelected] = useState(() => new Set((initialSelection || []).map(String)));
  const rowIds = useMemo(
    () => new Set((Array.isArray(rows) ? rows : EMPTY_ROWS).map((row, index) => (row[rowKey] == null ? `#${index}` : String(row[rowKey])))),
    [rows, rowKey],
  );
  useEffect(() => {
    // No rows yet (still loading) keeps an initial selection for when they come.
    if (!keepSelection && rowIds.size && [...selected].some((id) => !rowIds.has(id))) {
      setSelected(new Set([...selected].filter((id) => rowIds.has(id))));
    }
  }, [rowIds]); // eslint-disable-line react-hooks/exhaustive-deps
  // Python's drops: rows that left the list after a bulk change, or all when a filter changed. Functional, so a row
  // the user chose meanwhile stays chosen.
  const dropRef = useLatest(dropSelection);
  useChangeEffect(() => {
    const keys = dropRef.current?.keys;
    const gone = Array.isArray(keys) ? new Set(keys.map(String)) : null;
    setSelected((old) => (gone ? new Set([...old].filter((id) => !gone.has(id))) : new Set()));
  }, Number(dropSelection?.revision) || 0);
  const selectionText = [...selected].join(',');
  useChangeEffect((text) => onSelectionRef.current?.(text), selectionText);
  useEffect(() => {
    if (selected.size) onSelectionRef.current?.(selectionText); // an initial selection is news to Python too
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const shownIds = tableRows.map((row) => row.id);
  const allShownSelected = shownIds.length > 0 && shownIds.every((id) => selected.has(id));
  const someShownSelected = shownIds.some((id) => selected.has(id));
  const toggleAll = () => {
    const next = new Set(selected);
    shownIds.forEach((id) => (allShownSelected ? next.delete(id) : next.add(id)));
    setSelected(next);
  };
  const toggleRow = (id) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const headerCheckRef = useRef(null);
  useEffect(() => {
    if (headerCheckRef.current) headerCheckRef.current.indeterminate = someShownSelected && !allShownSelected;
  });

  // What the user sees, for Python (an export "as shown"): visible columns, the search, the sort.
  const sortText = sorting.length ? `${sorting[0].desc ? '-' : ''}${sorting[0].id}` : '';
  const viewText = JSON.stringify({ columns: visibleColumns.map((c) => String(c.key)), query: deferredQuery, sort: sortText });
  const askedRows = useRef(null); // the search and sort Python last heard: a change asks for other rows
  useEffect(() => {
    const rowsAsked = `${deferredQuery}\n${sortText}`;
    if (paged && askedRows.current !== null && askedRows.current !== rowsAsked) setBusy(true);
    askedRows.current = rowsAsked;
    onViewRef.current?.(viewText);
  }, [viewText]); // eslint-disable-line react-hooks/exhaustive-deps
  const scrollRef = useRef(null);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT_ESTIMATE,
    getItemKey: (index) => tableRows[index].id,
    overscan: 12,
  });

  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [deferredQuery, sorting, page]);

  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const colCount = visibleColumns.length + (actions.length ? 1 : 0) + (selectable ? 1 : 0);
  const actionsWidth = actions.length ? 16 + buttonCount * 36 : 0;
  const minWidth =
    visibleColumns.reduce((sum, c) => sum + (Number(c.width) || DEFAULT_COLUMN_WIDTH), 0) + actionsWidth + (selectable ? 36 : 0);
  const headers = table.getHeaderGroups()[0]?.headers ?? [];

  return (
    <div className="dsp-grid">
      {(searchPlaceholder != null || columnsLabel) && (
        <div className="dsp-grid-toolbar">
          {searchPlaceholder != null && (
          <div className="dsp-grid-search">
            <i className="bi bi-search" aria-hidden="true" />
            <input
              type="search"
              className="form-control form-control-sm"
              placeholder={searchPlaceholder}
              aria-label={searchPlaceholder}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            {query && (
              <button type="button" className="dsp-grid-clear" aria-label="Clear" onClick={() => setQuery('')}>
                <i className="bi bi-x-lg" aria-hidden="true" />
              </button>
            )}
          </div>
          )}
          {columnsLabel && <ColumnChooser columns={allColumns} hidden={hidden} setHidden={setHidden} label={columnsLabel} />}
        </div>
      )}
      <div className="dsp-grid-scroll" ref={scrollRef} aria-busy={paged && busy ? 'true' : undefined} style={{ height: `${Number(height) || 480}px` }}>
        <table className="table table-hover align-middle" style={{ minWidth: `${minWidth}px` }}>
          <colgroup>
            {selectable && <col style={{ width: '36px' }} />}
            {visibleColumns.map((c) => (
              <col key={c.key} style={c.width ? { width: `${Number(c.width)}px` } : undefined} />
            ))}
            {actions.length > 0 && <col style={{ width: `${actionsWidth}px` }} />}
          </colgroup>
          <thead>
            <tr>
              {selectable && (
                <th scope="col" className="dsp-grid-check">
                  <input
                    ref={headerCheckRef}
                    className="form-check-input"
                    type="checkbox"
                    aria-label={selectAllLabel}
                    title={selectAllLabel}
                    data-select="all"
                    checked={allShownSelected}
                    onChange={toggleAll}
                  />
                </th>
              )}
              {headers.map((header, i) => {
                const column = visibleColumns[i];
                const sorted = header.column.getIsSorted();
                const numeric = NUMERIC_TYPES.has(column.type);
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={numeric ? 'dsp-num' : undefined}
                    aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button type="button" className="dsp-grid-sort" onClick={header.column.getToggleSortingHandler()}>
                        <span>{column.label}</span>
                        <SortIcon direction={sorted} />
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                );
              })}
              {actions.length > 0 && <th scope="col" aria-label="Actions" />}
            </tr>
          </thead>
          <tbody>
            {tableRows.length === 0 ? (
              <tr className="dsp-grid-empty">
                <td colSpan={colCount}>
                  <i className="bi bi-inbox" aria-hidden="true" />
                  {emptyText}
                </td>
              </tr>
            ) : (
              <>
                {padTop > 0 && (
                  <tr className="dsp-grid-spacer" aria-hidden="true"><td colSpan={colCount} style={{ height: `${padTop}px` }} /></tr>
                )}
                {items.map((item) => {
                  const row = tableRows[item.index];
                  const keyValue = row.original[rowKey] ?? null;
                  const isSelected = selectable && selected.has(row.id);
                  return (
                    <tr
                      key={row.id}
                      data-index={item.index}
                      data-row={row.id}
                      ref={virtualizer.measureElement}
                      className={[clickable && 'dsp-grid-clickable', isSelected && 'dsp-grid-selected'].filter(Boolean).join(' ') || undefined}
                      tabIndex={clickable ? 0 : undefined}
                      onClick={clickable ? () => onRowClickRef.current?.(keyValue) : undefined}
                      onKeyDown={
                        clickable
                          ? (event) => {
                              if (event.key === 'Enter') onRowClickRef.current?.(keyValue);
                            }
                          : undefined
                      }
                    >
                      {selectable && (
                        <td className="dsp-grid-check" onClick={(event) => event.stopPropagation()}>
                          <input
                            className="form-check-input"
                            type="checkbox"
                            aria-label={selectRowLabel}
                            data-select={row.id}
                            checked={isSelected}
                            onChange={() => toggleRow(row.id)}
                          />
                        </td>
                      )}
                      {visibleColumns.map((column) => (
                        <Cell
                          key={column.key}
                          column={column}
                          value={row.original[column.key]}
                          format={format}
                          rowKeyValue={keyValue}
                          onActionRef={onActionRef}
                        />
                      ))}
                      {actions.length > 0 && (
                        <ActionButtons
                          actions={actions}
                          layout={actionLayout}
                          row={row.original}
                          rowKeyValue={keyValue}
                          onActionRef={onActionRef}
                          label={moreLabel}
                        />
                      )}
                    </tr>
                  );
                })}
                {padBottom > 0 && (
                  <tr className="dsp-grid-spacer" aria-hidden="true"><td colSpan={colCount} style={{ height: `${padBottom}px` }} /></tr>
                )}
              </>
            )}
          </tbody>
        </table>
      </div>
      <div className="dsp-grid-footer">
        <span>
          <span className="dsp-grid-count" role="status">
            {rowCountLabel.replace('{count}', format.count(paged ? total : tableRows.length))}
            {selectable && selected.size > 0 && (
              <span className="ms-2 fw-semibold text-body" data-selected-count={selected.size}>{`· ${selectedLabel.replace('{count}', format.count(selected.size))}`}</span>
            )}
          </span>
          {selectable && selected.size > 0 && clearSelectionLabel && (
            <button type="button" className="btn btn-link btn-sm dsp-grid-clear-selection" data-action="clear-selection"
              onClick={() => setSelected(new Set())}>
              <i className="bi bi-x-circle me-1" aria-hidden="true" />
              {clearSelectionLabel}
            </button>
          )}
        </span>
        {paged ? (
          pages > 1 && (
            <span className="dsp-grid-pager" data-page={page} data-pages={pages}>
              <button type="button" className="btn btn-outline-secondary" aria-label={previousLabel} title={previousLabel}
                data-action="previous-page" disabled={page <= 1} onClick={() => askPage(page - 1)}>
                {'\u2039'}
              </button>
              <span>{pageLabel.replace('{page}', format.count(page)).replace('{pages}', format.count(pages))}</span>
              <button type="button" className="btn btn-outline-secondary" aria-label={nextLabel} title={nextLabel}
                data-action="next-page" disabled={page >= pages} onClick={() => askPage(page + 1)}>
                {'\u203a'}
              </button>
            </span>
          )
        ) : tableRows.length !== total && <span>{`/ ${format.count(total)}`}</span>}
      </div>
    </div>
  );
}
