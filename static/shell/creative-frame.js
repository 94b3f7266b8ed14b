// The document an html creative is previewed in (/creative-frame, see app/csp.py CREATIVE_FRAME_POLICY):
// it waits for the console page that frames it to send the markup (static/shell/actions.js), then writes
// the markup as its own document, so the creative's scripts run here, in an opaque origin, and not in
// the console. Messages from anything but the framing page are ignored.
let written = false;
window.addEventListener("message", (event) => {
  if (written || window.parent === window || event.source !== window.parent) return;
  const data = event.data;
  if (!data || data.type !== "dsp-creative-markup" || typeof data.markup !== "string") return;
  written = true;
  document.open();
  document.write(data.markup);
  document.close();
});
