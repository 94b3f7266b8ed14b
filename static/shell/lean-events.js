// Two fixes to the pinned ReactPy client (2.0.0b13), installed through Preact's public `options` hooks before the
// client mounts (static/shell/boot.js; Python side: components/reactpy_fixes.py, which names the chunk and the export
// that hold Preact's `options`).
//
// 1. Lean events. ReactPy's client turns every DOM event into JSON with its `event-to-object` package, which walks
//    the event and its target up to 10 levels deep: an input's `form` with every field, each field's `labels`,
//    `style`, `attributes`, the window selection's nodes... About 41 KB per keystroke in a campaign form and 1 MB on
//    the brand settings page, and ~10 ms of a click spent before the event is sent. That walker is upstream's answer
//    to reactive-python/reactpy#1196 ("Rewrite `event_to_object` package": serialize everything to a max depth
//    instead of a list of safe attributes; closed), and no upstream issue asks for less yet. Until the client sends
//    less, `options.event` hands ReactPy's handler a small plain snapshot of what the console's handlers read
//    instead of the DOM event; event-to-object copies a plain object as it is, so the wire carries only the
//    snapshot. The snapshot keeps the shapes the handlers already rely on (components/ui/forms.py):
//      target, currentTarget (only when it differs): tagName, id, name, type (a field's or fieldset's), value (anything
//        with a string value),
//        checked (checkboxes and radios), dataset (when it has entries: the time grid's data-cell, the selects'
//        data-field / data-multi), selectionStart / selectionEnd (text fields), files (name, type, lastModified:
//        file bytes never cross the websocket; uploads are HTTP posts);
//        a <select> is the list of its options ({value, selected, dataset}), a <form> the list of its fields'
//        snapshots, as ReactPy's own serializer gives them (both are array-like in the DOM).
//      key, code, repeat (keyboard: Escape closes menus and editors); button (mouse); ctrlKey, shiftKey, altKey,
//      metaKey; submitter (the button that submitted a form); type.
//    preventDefault() and stopPropagation() reach the DOM event (ReactPy calls them for handlers that ask).
//
// 2. No click lost to a render in flight. ReactPy's UserInputElement keeps an input's `value` as the user left it
//    until the server acknowledges the user's last event (the `_reactpy_ack_seq` the server writes on the element;
//    reactive-python/reactpy#1350, in 2.0.0b13 itself),
//    but passes `checked` straight to Preact, which sets the box to whatever the last render said, even a render
//    the server computed before the click reached it: the tick disappears, and a form submitted then saves it
//    unticked. Here a checkbox or radio the user changed keeps the user's state through every render whose
//    acknowledgement is older than the change (`options.diffed` puts it back within the same commit, so nothing is
//    painted in between); the first render that has seen the change decides again. (ReactPy's server used to
//    acknowledge an event handled while a render was half done, in a render that had read the state before it:
//    components/reactpy_fixes.py makes a render acknowledge only the events recorded before it began.)
//    A radio is held with its group: the user's choice unticks its mates without an event of theirs, and a stale
//    render that ticks one of them (Preact compares `checked` with the DOM, so it does) would untick the choice
//    again. A mate diffed after the choice would win, so every radio's diff puts a held mate back, and when the
//    held radio's own acknowledged render comes the group is set as that render says.

const INPUT_TAGS = new Set(["INPUT", "SELECT", "TEXTAREA"]);  // ReactPy's UserInputElement tags
const TOGGLES = new Set(["checkbox", "radio"]);
const TEXT_TYPES = new Set(["text", "search", "url", "tel", "password", "email", "number", ""]);

// Per input element: how many events its handlers have sent (ReactPy's UserInputElement numbers them 1, 2, ... per
// element: the `seq` the server acknowledges), and the state the user gave a checkbox or radio with that event's seq.
const sent = new WeakMap();
const held = new WeakMap();
const heldRadios = new Set();  // the radios in `held`, to find a group's held choice from a mate
const renderedChecked = new WeakMap();  // per radio: `checked` as the last render gave it

// Radios of one group: same name, same form (or none), same document.
function sameGroup(a, b) {
  return a !== b && a.type === "radio" && b.type === "radio" && a.name !== "" && a.name === b.name &&
    a.form === b.form && a.getRootNode() === b.getRootNode();
}

function release(element) {
  held.delete(element);
  heldRadios.delete(element);
}

function dataset(element) {
  const data = element.dataset;
  if (!data) return undefined;
  const entries = Object.entries(data);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

function option(element) {
  return { value: element.value, selected: element.selected || undefined, dataset: dataset(element) };
}

function describe(element) {
  if (!(element instanceof Element)) return undefined;
  if (element instanceof HTMLSelectElement) return Array.from(element.options, option);
  if (element instanceof HTMLFormElement) return Array.from(element.elements, describe);
  const described = { tagName: element.tagName, id: element.id || undefined, name: element.getAttribute("name") ?? undefined,
                      dataset: dataset(element) };
  if (typeof element.value === "string") described.value = element.value;
  // Form fields' own type ("text", "checkbox", "submit", "select-one", "textarea", "fieldset"...): forms.py's
  // submitted_values tells fields from fieldsets and buttons by it.
  if (typeof element.type === "string" && element.type) described.type = element.type;
  if (element instanceof HTMLInputElement) {
    if (TOGGLES.has(element.type)) described.checked = element.checked;
    if (element.type === "file") {
      described.files = Array.from(element.files ?? [], (f) => ({ name: f.name, type: f.type, lastModified: f.lastModified }));
    }
  }
  if (element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && TEXT_TYPES.has(element.type))) {
    try {  // number and email inputs have no selection and throw
      described.selectionStart = element.selectionStart ?? undefined;
      described.selectionEnd = element.selectionEnd ?? undefined;
    } catch {
      /* no selection on this input type */
    }
  }
  return described;
}

export function leanEvent(event) {
  const { target, currentTarget } = event;
  const lean = {
    type: event.type,
    target: describe(target),
    currentTarget: currentTarget !== target ? describe(currentTarget) : undefined,
    preventDefault: () => event.preventDefault(),
    stopPropagation: () => event.stopPropagation(),
  };
  for (const key of ["key", "code", "repeat", "button", "ctrlKey", "shiftKey", "altKey", "metaKey"]) {
    if (key in event) lean[key] = event[key];
  }
  if (event.submitter) lean.submitter = describe(event.submitter);
  return lean;
}

function noteSent(event) {
  const element = event.currentTarget;
  if (!(element instanceof Element) || !INPUT_TAGS.has(element.tagName)) return;
  const seq = (sent.get(element) ?? 0) + 1;  // the `seq` ReactPy's UserInputElement gives this event: 1, 2, ...
  sent.set(element, seq);
  if (element instanceof HTMLInputElement && TOGGLES.has(element.type)) {
    if (element.type === "radio") {
      for (const mate of heldRadios) if (sameGroup(mate, element)) release(mate);  // the newest choice holds
      heldRadios.add(element);
    }
    held.set(element, { checked: element.checked, seq });
  }
}

// ReactPy's UserInputElement compares the server's acknowledgement with the number of the user's last event counted
// from 0, but sends that event numbered from 1: the render answering keystroke n-1 carries n-1, which passes for
// "caught up" once keystroke n is typed, and its stale value overwrites the field: letters lost at 20 keys a second
// (bench/client_events.py: 6-18 of 40 on the brand settings page with the client as shipped). Each input's model is
// handed to it with the acknowledgement lowered by one, the numbering it compares with; the server's own number is
// kept beside it for the check below.
const SERVER_ACK = Symbol("server's acknowledgement");

function alignAcknowledgement(vnode) {
  const model = vnode.props?.model;
  const acknowledged = model?.attributes?._reactpy_ack_seq;
  if (typeof vnode.type !== "function" || typeof acknowledged !== "number" || SERVER_ACK in model) return;
  vnode.props.model = { ...model, [SERVER_ACK]: acknowledged,
                        attributes: { ...model.attributes, _reactpy_ack_seq: acknowledged - 1 } };
}

function keepUserToggle(vnode) {
  // The UserInputElement (and the Element around it) carry the model; `__e` is the vnode's DOM node (Preact 10's
  // mangled name for it, the one its devtools read).
  const model = vnode.props?.model;
  const element = vnode.__e;
  if (!model || typeof vnode.type !== "function" || !(element instanceof HTMLInputElement)) return;
  const radio = element.type === "radio";
  if (radio && model.attributes && "checked" in model.attributes) {
    renderedChecked.set(element, Boolean(model.attributes.checked));
  }
  const hold = held.get(element);
  if (hold) {
    const acknowledged = model[SERVER_ACK];
    if (typeof acknowledged === "number" && acknowledged >= hold.seq) {
      release(element);  // the server has seen the change: this render decides
      if (radio) groupAsRendered(element);
    } else if (element.checked !== hold.checked) {
      element.checked = hold.checked;
    }
  }
  if (radio) {
    for (const mate of heldRadios) {
      if (!mate.isConnected) release(mate);
      else if (sameGroup(mate, element) && held.get(mate)?.checked && !mate.checked) mate.checked = true;
    }
  }
}

// A radio's hold has ended: its group shows what the renders last said (a mate ticked by the render that was
// diffed before this one, and unticked again to keep the hold, gets its tick back).
function groupAsRendered(radio) {
  if (renderedChecked.get(radio) !== false) return;
  const scope = radio.form ?? radio.getRootNode();
  for (const mate of scope.querySelectorAll?.('input[type="radio"]') ?? []) {
    if (sameGroup(mate, radio) && renderedChecked.get(mate) === true) mate.checked = true;
  }
}

export function installLeanEvents(options) {
  if (!options || typeof options !== "object" || !("event" in options)) {
    console.warn("lean-events: Preact's options not found; ReactPy's own event serializer stays in use");
    return false;
  }
  const previousEvent = options.event;  // preact/compat's, which adds persist() and friends
  options.event = (event) => {
    const native = previousEvent ? previousEvent(event) : event;
    noteSent(native);
    return leanEvent(native);
  };
  const previousVnode = options.vnode;
  options.vnode = (vnode) => {
    alignAcknowledgement(vnode);
    if (previousVnode) previousVnode(vnode);
  };
  const previousDiffed = options.diffed;
  options.diffed = (vnode) => {
    if (previousDiffed) previousDiffed(vnode);
    keepUserToggle(vnode);
  };
  return true;
}
