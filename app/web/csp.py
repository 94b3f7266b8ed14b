"""Content-Security-Policy: what the console's pages may load and run.

HtmlShellHeaders sends PAGE_POLICY with every response that does not set its own (the pages, the API, the
static files: an SVG or a JSON body opened directly gets it too). Routes with other needs set theirs:
/docs (DOCS_POLICY), the html-creative frame (CREATIVE_FRAME_POLICY), the served files (`default-src 'none'`).

Nothing here needs 'unsafe-inline' or 'unsafe-eval' for scripts: the page shell loads its boot code from
/static/shell (app/web/html_shell.py), and the few things done in the browser without a widget (copy buttons,
select-on-focus, feeding html creatives to their frame) are delegated listeners in /static/shell/actions.js,
driven by data- attributes. tests/e2e/test_content_security_policy.py walks every role's menu and the
interactive flows in Chromium and counts violations.
"""

from __future__ import annotations


def _policy(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {value}".strip() for name, value in directives.items())


PAGE_DIRECTIVES = {
    # Anything not named below: this server only.
    "default-src": "'self'",
    # Our own files only: ReactPy's client (/reactpy/static), the widget bundles and the shell's boot code
    # (/static). No inline script, no eval: ReactPy's string event handlers (which it runs with eval) are
    # therefore unusable, on purpose.
    "script-src": "'self'",
    # Bootstrap, its icons and console.css from /static; the white-label colours are a stylesheet too
    # (/theme.css, app/settings/brand_theme.py). No <style> element and no style="" attribute in markup: the
    # components set styles through React's style property (the DOM's CSSOM, which CSP does not govern),
    # and the widgets adopt constructed stylesheets (js_modules/src/lib/css.js).
    "style-src": "'self'",
    # Our files, uploaded creatives and logos (/files), Bootstrap's data: SVG icons (form-select arrows,
    # checkboxes), and blob: for previews of a file picked but not yet uploaded.
    "img-src": "'self' data: blob:",
    # Video creatives from /files and local previews of picked files.
    "media-src": "'self' blob:",
    # Bootstrap Icons' font from /static/vendor.
    "font-src": "'self'",
    # fetch/XHR (uploads, exports) and ReactPy's websocket. 'self' matches ws:/wss: to the same host in
    # CSP Level 3 browsers (Chromium >= 80, Firefox >= 79, Safari >= 15.4); Debian's chromium is 156.
    "connect-src": "'self'",
    # The html-creative frame (/creative-frame, its own policy) and nothing from elsewhere.
    "frame-src": "'self'",
    # No plugins.
    "object-src": "'none'",
    # A injected <base href> could re-point every relative script URL.
    "base-uri": "'self'",
    # Forms post here only. Stripe Checkout is reached by navigating to /api/payment/stripe/checkout/{id}
    # (a same-origin redirect), not by a form, so Stripe need not be listed.
    "form-action": "'self'",
    # Only our own pages may frame the console (clickjacking); X-Frame-Options: SAMEORIGIN says the same
    # to older browsers.
    "frame-ancestors": "'self'",
    # Web workers: none today; our origin only if a widget starts one.
    "worker-src": "'self' blob:",
    # The manifest and the favicon are ours.
    "manifest-src": "'self'",
}
PAGE_POLICY = _policy(PAGE_DIRECTIVES)

# /docs: Swagger UI, served from /static/vendor/swagger-ui (no CDN). Its bundle is the only script that
# needs more than PAGE_POLICY: none so far (checked by the browser test), so it is the page policy.
DOCS_POLICY = PAGE_POLICY

# /creative-frame: the document an html creative is written into (static/shell/creative-frame.js). Ad
# markup loads scripts, images and frames from anywhere and uses inline script, so this one is open; what
# keeps it away from the console is the `sandbox` directive: whoever opens this URL (a frame on the
# console or a top-level tab), the document gets an opaque origin, with no access to the console's
# cookies, storage or DOM. It may be framed only by the console.
CREATIVE_FRAME_PATH = "/creative-frame"
CREATIVE_FRAME_POLICY = _policy({
    "sandbox": "allow-scripts",
    "default-src": "* data: blob: 'unsafe-inline' 'unsafe-eval'",
    "frame-ancestors": "'self'",
    "base-uri": "'none'",
    "form-action": "'none'",
})

# Over https only (see HtmlShellHeaders): browsers then refuse plain http for this host for a year. Not
# sent over plain http, where it would be ignored anyway and where an on-prem install may really be served.
STRICT_TRANSPORT_SECURITY = "max-age=31536000"

# Powerful features the console never uses, off for it and for every frame in it (html creatives).
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), display-capture=()"

# A window this console opens (or that opens it) cannot reach into it by window.opener; popups the
# console opens on purpose (Stripe, /docs) are navigations that need no handle back.
CROSS_ORIGIN_OPENER_POLICY = "same-origin"
