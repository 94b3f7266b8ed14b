// The few things the console does in the browser without a widget, as listeners on the document driven by
// data- attributes that the Python components render. They replace ReactPy string event handlers, which
// ReactPy runs with eval and which the Content-Security-Policy (app/csp.py) therefore forbids.
//
//   <button data-copy-from="ID" data-copied="Copied">   copies the value of the field #ID to the clipboard,
//       then shows data-copied in its [data-copy-label] child (or in itself) and turns btn-primary to
//       btn-success. The value is read from the field, so no secret is ever part of an attribute or script.
//   <input data-select-on-focus>                        selects its whole text when focused.
//   <iframe data-creative-markup="..." src="/creative-frame">  hands the markup to the sandboxed frame
//       (static/shell/creative-frame.js writes it into its own document) once the frame has loaded.

function copied(button) {
  const label = button.querySelector("[data-copy-label]") || button;
  label.textContent = button.getAttribute("data-copied");
  if (button.classList.contains("btn-primary")) button.classList.replace("btn-primary", "btn-success");
}

function copy(button) {
  const field = document.getElementById(button.getAttribute("data-copy-from"));
  if (!field) return;
  field.focus();
  field.select();
  const fallback = () => {
    document.execCommand("copy");
    copied(button);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(() => copied(button), fallback);
  } else {
    fallback();
  }
}

document.addEventListener("click", (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-copy-from]");
  if (button) copy(button);
});

document.addEventListener("focusin", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.hasAttribute("data-select-on-focus")) {
    event.target.select();
  }
});

// The markup each frame was given: its document replaces itself with the markup, which may fire `load`
// again; it is fed once.
const fed = new WeakSet();
document.addEventListener("load", (event) => {
  const frame = event.target;
  if (!(frame instanceof HTMLIFrameElement) || !frame.hasAttribute("data-creative-markup") || fed.has(frame)) return;
  fed.add(frame);
  // "*": the frame's origin is opaque (sandboxed), so it has no origin to name. The markup is the
  // creative's own, shown to whoever may see the creative.
  frame.contentWindow.postMessage({ type: "dsp-creative-markup", markup: frame.getAttribute("data-creative-markup") }, "*");
}, true);
