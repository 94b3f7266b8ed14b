// Adds a widget's CSS to the document once. A constructed stylesheet needs no inline <style>
// element, so it keeps working under a Content-Security-Policy without 'unsafe-inline'.
const adopted = new Set();

export function adoptCss(id, cssText) {
  if (adopted.has(id) || typeof document === 'undefined') return;
  adopted.add(id);
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(cssText);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.dataset.widget = id;
    style.textContent = cssText;
    document.head.appendChild(style);
  }
}
