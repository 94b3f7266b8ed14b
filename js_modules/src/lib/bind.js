// The `bind(node, context)` contract that every widget entry exports for ReactPy.
//
// What the ReactPy 2.0.0b13 client does (read from reactpy/static/index.js and its source map:
// @reactpy/client vdom.js, components.js, bind.js; event-to-object; reactpy/core/layout.py):
//
// - For an element whose VDOM has `importSource` it renders a <span> and, once its module is
//   loaded (`await import(url)` for component_from_url), calls `bind(span, {sendMessage,
//   onMessage})`. Its effect depends on `mountPoint.current`, which is null on the first pass,
//   so the effect runs twice: binding #1 is created, `unmount()` is called on it, `render()` is
//   then still called once on binding #1, and binding #2 is created for the same node. Hence one
//   React root per DOM node, kept in a WeakMap, and an unmount that is deferred one task so the
//   render that follows at once cancels it instead of remounting the whole widget.
// - `render(element)` is called after every Preact render of that span (every server update),
//   with an element it built through our `create(type, props, children)`:
//     type     = the export named by the Python constructor (e.g. `Chart`), or a tag string
//                for nested plain children, or "reactpy-child" for nested foreign widgets;
//     props    = the VDOM `attributes` (JSON from Python, keys unchanged: pass camelCase) merged
//                with one JS function per Python event handler (new function identities on
//                every update: read them through a ref, never list them as effect deps);
//     children = array of strings / created elements (our widgets take none).
// - A Python callable prop arrives as `function (...args)`. Each argument is sent to the server
//   as JSON: strings, numbers and booleans as they are; any object (including arrays, which
//   become {"0": ..} dicts, and DOM events) goes through event-to-object, which drops null /
//   function values, keys starting "__", all-caps keys and keys named size/length/view, and
//   stops at depth 10; `null` itself stays null. Python receives them positionally:
//   handler(*args), dicts as reactpy.types.Event. So widgets call handlers with primitives
//   only, e.g. onAction("edit", 42) -> def on_action(action_id, row_key).
// - Attribute names matching /^on[A-Z]/ whose value is a *string* are eval'd as inline JS by
//   the client; never send strings in on* props.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const roots = new WeakMap(); // DOM node -> { root, unmountTimer }

function getRoot(node) {
  let entry = roots.get(node);
  if (!entry) {
    // The mount point is an inline <span>; let our block children lay out as if it were absent.
    node.style.display = 'contents';
    entry = { root: createRoot(node), unmountTimer: null };
    roots.set(node, entry);
  }
  if (entry.unmountTimer !== null) {
    clearTimeout(entry.unmountTimer);
    entry.unmountTimer = null;
  }
  return entry.root;
}

export function bind(node) {
  return {
    create: (type, props, children) => createElement(type, props, ...(children || [])),
    render: (element) => getRoot(node).render(element),
    unmount: () => {
      const entry = roots.get(node);
      if (!entry || entry.unmountTimer !== null) return;
      entry.unmountTimer = setTimeout(() => {
        entry.unmountTimer = null;
        if (roots.get(node) === entry) roots.delete(node);
        entry.root.unmount();
      }, 0);
    },
  };
}
