// <FigureTable columns rows rowKey locale linkKey shareKey maxHeight label emptyText nullText sortLabel
//   tableData />: a compact, read-only table of figures (a dashboard's "performance by" and day-by-day
// tables), drawn in the browser from rows sent as data.
//
// Why not Python elements: a table drawn in Python is rebuilt and resent whole on every update of its
// page (a date preset, a query answering), and a 90-day table is 720 cells; under a few hundred tabs
// that rebuilding was most of the server's event loop (bench/README.md). Why not the data grid: it is
// virtualized, searchable and selectable, which a ten-row summary doesn't need, and its bundle would
// take a dashboard past its JavaScript budget.
//
// - columns: [{key, label, type}], type as the grid's (text, number, money, percent, date, day); the
//   first column is the row's label. Sortable by its header; `sort` ("-key" descending) is the start.
// - linkKey: a row field holding an in-app path for the label: a plain left click navigates in place
//   through the router (history.pushState, then the popstate the router listens for); a modified click
//   (new tab, new window) is left to the browser.
// - shareKey: a row field drawn as a thin bar under the label, as a share of the largest row's.
// - maxHeight (px): the body scrolls under a sticky header, as a keyboard-focusable region named `label`.
// - tableData: {"breakdown": "campaign"} becomes data-breakdown="campaign" on the <table>.
import { useMemo, useState } from 'react';
import { makeComparator, makeFormatters, sortsDescendingFirst, toNumber } from '../lib/format.js';
import { adoptCss } from '../lib/css.js';

export { bind } from '../lib/bind.js';

adoptCss('figuretable', `
.dsp-figure-table thead th { background: var(--bs-body-bg); white-space: nowrap; }
.dsp-figure-table .dsp-sort { border: 0; background: none; padding: 0; font: inherit; color: inherit; }
.dsp-figure-table .dsp-sort:hover { color: var(--bs-emphasis-color); }
.dsp-figure-table .dsp-sort .bi { font-size: .7rem; opacity: .6; }
.dsp-figure-table-label { max-width: 16rem; }
`);

function navigate(event, href) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  window.history.pushState(null, '', href);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

function dataAttributes(tableData) {
  const out = {};
  Object.entries(tableData || {}).forEach(([name, value]) => {
    if (/^[a-z][a-z0-9-]*$/.test(name)) out[`data-${name}`] = String(value);
  });
  return out;
}

export function FigureTable({
  columns = [],
  rows = [],
  rowKey = 'id',
  locale,
  linkKey = null,
  shareKey = null,
  maxHeight = null,
  label = '',
  emptyText = 'No records',
  nullText = '–',
  sort: initialSort = '',
  onExplain = null,
  explainKey = null,
  explainColumns = null,
  explainLabel = 'What is {column} made of?',
  sortLabel = 'Sort by {column}',
  tableData = null,
}) {
  const format = useMemo(() => makeFormatters(locale), [locale]);
  const [sort, setSort] = useState(initialSort);
  const sortBy = sort.replace(/^-/, '');
  const descending = sort.startsWith('-');

  const shown = useMemo(() => {
    const column = columns.find((c) => c.key === sortBy);
    if (!column) return rows;
    // The grid's comparators, over rows shaped as its table hands them over; missing figures go last either way.
    const compare = makeComparator(column.type || 'text', format.collator);
    const missing = (item) => (item.row[column.key] == null || item.row[column.key] === '' ? 1 : 0);
    const items = rows.map((row) => ({ row, getValue: (id) => row[id] }));
    items.sort((a, b) => missing(a) - missing(b)
      || (missing(a) ? 0 : (descending ? -1 : 1) * compare(a, b, column.key)));
    return items.map((item) => item.row);
  }, [rows, columns, sortBy, descending, format]);

  const topShare = useMemo(
    () => (shareKey ? Math.max(0, ...rows.map((row) => toNumber(row[shareKey]) || 0)) : 0),
    [rows, shareKey],
  );

  if (!rows.length) return <p className="text-body-secondary small mb-0 py-3 text-center">{emptyText}</p>;

  const toggle = (column) => {
    if (sortBy !== column.key) setSort(sortsDescendingFirst(column.type) ? `-${column.key}` : column.key);
    else setSort(descending ? column.key : `-${column.key}`);
  };
  const cell = (column, row, index) => {
    const value = row[column.key];
    const type = column.type || 'text';
    const text = value == null || value === '' ? nullText : format.cell(type, value);
    if (index > 0) {
      // A figure that can be explained (issue 27: any number opens what it is made of) is a button: Python hears
      // onExplain(the row's explainKey value, the column's key) and opens the explanation.
      const explained = onExplain && explainKey && row[explainKey] != null && value != null && value !== ''
        && (!explainColumns || explainColumns.includes(column.key));
      return (
        <td key={column.key} className="text-end text-nowrap">
          {explained
            ? <button type="button" className="dsp-cell-explain" data-explain-cell={column.key}
                      data-explain-row={String(row[explainKey])}
                      title={explainLabel.replace('{column}', column.label)}
                      onClick={() => onExplain(String(row[explainKey]), column.key)}>{text}</button>
            : text}
        </td>
      );
    }
    const href = linkKey ? row[linkKey] : null;
    const share = shareKey && topShare > 0 ? ((toNumber(row[shareKey]) || 0) * 100) / topShare : null;
    return (
      <td key={column.key} className="text-truncate text-nowrap dsp-figure-table-label">
        {typeof href === 'string' && href.startsWith('/') && !href.startsWith('//')
          ? <a href={href} className="link-body-emphasis text-decoration-none" onClick={(e) => navigate(e, href)}>{text}</a>
          : text}
        {share !== null && (
          <div className="dsp-share" aria-hidden="true"><span style={{ width: `${share.toFixed(0)}%` }} /></div>
        )}
      </td>
    );
  };

  const table = (
    <table className="table table-sm table-hover align-middle mb-0 dsp-figure-table" {...dataAttributes(tableData)}>
      <thead className={maxHeight ? 'sticky-top' : undefined}>
        <tr>
          {columns.map((column, index) => {
            const active = sortBy === column.key;
            return (
              <th key={column.key} scope="col" className={index > 0 ? 'text-end' : undefined}
                  aria-sort={active ? (descending ? 'descending' : 'ascending') : undefined}>
                <button type="button" className="dsp-sort" data-sort={column.key} onClick={() => toggle(column)}
                        title={sortLabel.replace('{column}', column.label)}>
                  {column.label}
                  {active && <i className={`bi ${descending ? 'bi-arrow-down' : 'bi-arrow-up'} ms-1`} aria-hidden="true" />}
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {shown.map((row, rowIndex) => (
          <tr key={String(row[rowKey] ?? rowIndex)}>{columns.map((column, index) => cell(column, row, index))}</tr>
        ))}
      </tbody>
    </table>
  );
  if (!maxHeight) return <div className="table-responsive">{table}</div>;
  // A scrolling region takes keyboard focus, so it can be scrolled without a mouse.
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-label={label}
         style={{ maxHeight: `${Number(maxHeight)}px`, overflowY: 'auto' }}>
      {table}
    </div>
  );
}
