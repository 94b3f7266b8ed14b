"""Console guide (/documentation/console): working in the console, its settings, the API and the
validation rules. Messages are taken from app.kernel.validation itself, so the table cannot drift."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.kernel import validation as v
from app.kernel.config import get_settings
from app.kernel.i18n.formatters import file_size
from components.docs.general_content import MENU_NOTE, Section, callout, code, items, kbd, para, steps, table


def _pre(text: str) -> Any:
    return html.pre({"className": "bg-body-tertiary border rounded p-3 small mb-3"}, html.code(text))


def _top_bar() -> Any:
    return (
        para("The top bar runs across every console page. From left to right:"),
        table(("Item", "What it does", "Who sees it"), [
            ("Logo and name", "The brand of this address; it takes you to your home page.", "everyone"),
            (html.span(html.i({"className": "bi bi-list me-1"}), "Menu toggle"),
             "Opens and closes the menu on narrow screens.", "everyone, on small screens"),
            ("Acting as … and Back To …", "Shows whose account you are in and takes you back to yours.",
             "while acting as another user"),
            ("Balance", "The advertiser's current balance, for example $1,234.50 or -$5.00.", "advertisers only"),
            ("Dashboard / Insight360", "Switches the dashboard between the classic view (the default) and the "
             "Insight360 view. The choice is saved with your account.",
             "admins and co-admins; agencies and advertisers when Insight360 is enabled for them"),
            (html.span(html.i({"className": "bi bi-translate me-1"}), "Language"),
             "English, Spanish, German, Italian or Russian, remembered per browser.", "everyone"),
            (html.span(html.i({"className": "bi bi-arrows-fullscreen me-1"}), "Full screen"),
             "Shows the console on the whole screen; choose it again to leave.", "everyone"),
            (html.span(html.i({"className": "bi bi-bell me-1"}), "Notifications"),
             "Your latest notifications with an unread count; choosing one marks it read, and Mark all as "
             "read clears the count.", "everyone"),
            ("User menu", "Your name, company and account ID, then Profile, Settings, Theme settings and Log out.",
             "everyone (admins do not see the name, company and ID block)"),
        ]),
        para("Settings in the user menu opens the brand settings for admins; other roles see it when their "
             "account has settings to manage. The round gear button at the bottom corner also opens the theme "
             "settings."),
    )


def _menu() -> Any:
    return (
        para("The menu lists the sections of your role, in a sidebar on the left (vertical layout) or in a bar "
             "under the top bar (horizontal layout). The section you are in is highlighted. Every role starts "
             "with its Dashboard."),
        items(
            ("API Docs", "For agencies and advertisers with API access: opens the API reference in a new tab."),
            ("Help & Support", "When the brand enables it: opens the support link in a new tab."),
        ),
        callout(MENU_NOTE),
    )


def _dashboard() -> Any:
    return (
        para("The dashboard opens with five figures: Impressions, Clicks, CTR, Spend and Conversions, then the "
             "Performance by day chart. The Insight360 view adds a Spend by exchange chart beside it."),
        table(("Role", "Table under the charts"), [
            ("ADMIN, CO-ADMIN", "Accounts: name, e-mail, role, agency, status, balance and creation date."),
            ("AGENCY", "My advertisers, with the same columns except agency."),
            ("ADVERTISER", "Recent transactions: date, type, note and amount."),
        ]),
        para("Tables can be searched with the box above them and sorted by choosing a column heading; choose "
             "it again to reverse the order. Until delivery statistics arrive the figures stay at zero and the "
             "charts say \"No delivery statistics yet. Figures appear here once your campaigns serve.\""),
    )


def _theme() -> Any:
    return (
        para("Theme settings (user menu, or the gear button) change how the console looks for you. Choices "
             "apply at once and are saved with your account."),
        table(("Option", "Choices", "Effect"), [
            ("Layout", "Vertical, Horizontal", "Menu in a sidebar, or in a bar under the top bar."),
            ("Width", "Fluid, Boxed, Scrollable",
             "Full width; content in a centred box; or top bar and menu that scroll away with the page."),
            ("Top bar", "Light, Dark, Brand", "Colour of the top bar; Brand uses the brand's colours."),
            ("Sidebar", "Default, Compact, Icons only", "Full labels, a narrower menu, or icons with tooltips."),
            ("Sidebar colour", "Dark, Light, Brand", "Colour of the menu."),
            ("Show the page preloader", "on, off", "A short loading indicator while a page opens."),
        ]),
    )


def _profile() -> Any:
    return (
        para("Profile (user menu) shows your role and account ID. Personal details holds first name, last name "
             "(at most 25 characters each; letters, numbers, spaces and hyphens), e-mail and company; Save "
             "changes confirms with \"Profile saved\"."),
        steps("Under Password, enter your current password.",
              "Enter the new password twice: at least 8 characters, with letters and numbers, different from "
              "the current one.",
              "Choose Change password. Your other sessions are logged out; this one stays open."),
        callout("While acting as another account, Personal details are that account's; the password is always "
                "your own.", kind="secondary"),
    )


def _brand_settings() -> Any:
    limit = file_size(get_settings().max_image_upload_bytes)
    return (
        para("Admins find the brand settings at ", code("/admin/settings"), " (user menu, Settings). They "
             "decide how the console looks for everyone who opens it at this address."),
        table(("Group", "Fields and rules"), [
            ("Brand", "Company name and Browser title (at most 120 characters each), Footer text (at most 200) "
                      "and Footer start year (1990 to this year). The footer shows the start year to the "
                      "current year plus the text."),
            ("Colours", html.span("Primary, Primary (hover), Text on primary, Card background and Navigation "
                                  "bar, each as ", code("#rrggbb"), ", for example ", code("#4f46e5"), ".")),
            ("Support and availability", "Show Help & Support in the menu, with the Help & Support link (a "
                                         "valid http(s) address, required to show the item); Maintenance mode."),
            ("Logo and favicon", f"PNG, JPG, GIF, WEBP or ICO, at most {limit}; the file's content must match "
                                 "its type."),
        ]),
        callout("Maintenance mode sends every signed-in user who is not an admin or co-admin to the page "
                "\"Site is Under Maintenance\" / \"Please contact support team\" until you switch it off.",
                kind="warning", title="Maintenance mode"),
        para("The browser tab shows the page's name, then the browser title, then the company name. Tabs "
             "that are already open show a new brand after they reload."),
    )


def _api() -> Any:
    return (
        para("Agencies and advertisers with API access see API Docs in the menu. It opens ", code("/docs"),
             ", the OpenAPI reference, where every call can be read and tried."),
        steps(html.div("Log in with ", code("POST /api/auth/login/"), " and a JSON body:",
                       _pre('{"email": "you@example.com", "password": "…"}')),
              html.span("Send the token with every call: ", code("Authorization: Bearer <token>"), "."),
              html.span("Before the token's 2 hours are up, renew it with ", code("GET /api/auth/refresh-token"),
                        " (same header); the reply carries a new token. ", code("POST /api/auth/logout"),
                        " ends it.")),
        para("For a system that calls the API unattended, generate an API key on your Settings page instead "
             "(an admin can do it on your user configuration). Send it the same way, ",
             code("Authorization: Bearer dsp_…"), "; it works until it is revoked or API access is switched off "
             "(which revokes every key), and the page lists when and from where each key was last used. Choose what "
             "a key may do when you make it: ", code("read"), " (reads only), ", code("read_write"), " or ",
             code("reporting"), " (statistics, dashboards and reports reads only); a call outside it answers 403. "
             "No key can change your e-mail, password or two-factor sign-in, or manage keys: that takes your "
             "password login."),
        para("Every reply has the same four fields; ", code("data"), " holds the token, ", code("expires_in"),
             " (seconds) and the user after a login:"),
        _pre('{"success": true, "code": 200, "message": "Logged in", "data": {"token": "…", "expires_in": 7200}}'),
        table(("Code", "Meaning", "What to do"), [
            (code("200"), "Success.", "Read data."),
            (code("401"), "Not logged in, or the token has expired or was revoked.", "Log in again."),
            (code("403"), "Your role or account may not do this.", "Use an account that may."),
            (code("404"), "Not found, or outside what your account can see.", "Check the identifier."),
            (code("409"), "Conflicts with the current state, for example a duplicate.", "Reload and retry."),
            (code("422"), "Invalid input; data.fields maps each field to its message.", "Fix the fields."),
            (code("429"), "Too many attempts, for example failed logins.", "Wait, then retry."),
            (code("500"), "Unexpected server error.", "Retry later; tell support if it persists."),
        ]),
    )


def _statistics_ingest() -> Any:
    return (
        para("Delivery statistics (impressions, clicks, spend, conversions and custom events by hour) reach the "
             "console as batches sent by an admin's system, with an admin's API key or login token. Each batch is "
             "stored whole or not at all, and its spend is charged to each advertiser's balance; an advertiser "
             "whose balance runs out has its active campaigns paused and is notified."),
        steps(html.span("Send ", code("POST /api/statistics/batches"), " with ", code("batch_id"),
                        " (1 to 100 letters, digits and - _ . :) and up to 50,000 ", code("rows"), ":"),
              _pre("""curl -X POST https://console.example.com/api/statistics/batches \\
  -H "Authorization: Bearer dsp_…" -H "Content-Type: application/json" \\
  -d '{"batch_id": "exchange-a:2026-11-10T14",
       "rows": [{"hour": "2026-11-10T14:00:00Z", "advertiser_id": 4, "campaign_id": 12,
                 "creative_id": 0, "exchange": "Google AdX", "os": "Android", "country": "DE",
                 "app": "com.example.game", "device_type": "phone", "impressions": 18250,
                 "clicks": 141, "spend_micros": 43800000, "conversions": 6,
                 "events": {"install": 5}}]}'"""),
              html.span("The reply says how many rows were stored and what each advertiser was charged, in "
                        "micro-dollars ($1.00 is 1000000): ",
                        code('{"batch_id": "…", "rows": 1, "duplicate": false, '
                             '"spend_micros_by_advertiser": {"4": 43800000}}'), "."),
              html.span("After a timeout or an error, send the same batch with the same ", code("batch_id"),
                        " again: a batch already stored is neither stored nor charged twice (",
                        code('"duplicate": true'), ").")),
        table(("Field", "What it holds"), [
            (code("hour"), "The start of the hour, ISO 8601 with Z or an offset (14:00, not 14:30)."),
            (code("advertiser_id, campaign_id"), "The advertiser and one of its campaigns."),
            (code("creative_id"), "0, or one of the advertiser's creatives."),
            (code("exchange, os, app"), "Names, e.g. Google AdX, Android, com.example.game or a site's domain."),
            (code("country"), "ISO 3166-1 alpha-2 code, e.g. DE."),
            (code("device_type"), "phone, tablet, desktop, ctv or other."),
            (code("impressions, clicks, spend_micros, conversions"), "Whole numbers, 0 or more (clicks may "
             "exceed impressions: clicks can arrive late)."),
            (code("events"), "Optional: custom event names (a-z, 0-9, _) and their counts."),
        ]),
        para("A bad row refuses the whole batch with 422 and nothing is stored; ", code("data.fields"),
             " names the row and the field, e.g. ", code('{"rows[17].country": "Not an ISO country code."}'),
             " (the first 20 problems). The same rows as CSV, with a header row and ", code("event_<name>"),
             " columns for custom events, go to ", code("POST /api/statistics/batches/csv?batch_id=…"),
             " with ", code("Content-Type: text/csv"), "; problems then name the line (the header is line 1). ",
             code("GET /api/statistics"), " reads statistics back for every role, within what it may see."),
    )


def _postbacks() -> Any:
    return (
        para("When postbacks are enabled for an agency or advertiser, its Settings page shows its own conversion "
             "endpoint, with a secret token in the address. Give it to your measurement partner (MMP): each "
             "attributed event it sends is counted in your statistics, and install, purchase, registration, "
             "subscription, trial_started, checkout_initiated and conversion also count as a conversion."),
        _pre("https://console.example.com/api/postback/<token>?click_id={click_id}&event=install"
             "&campaign_id=12&country=DE&os=Android&revenue=0.00"),
        para(code("click_id"), ", ", code("event"), ", ", code("campaign_id"), " (one of your campaigns) and ",
             code("country"), " are required; ", code("creative_id"), ", ", code("os"), ", ", code("exchange"),
             ", ", code("app"), ", ", code("device_type"), ", ", code("event_time"), " and ", code("revenue"),
             " are optional. The same click and event sent twice count once. A wrong token answers 404, a "
             "wrong parameter 422 naming it."),
        para("Your own postback URL, on the same page, is then called (GET, up to 3 tries) for the events you "
             "chose, with its macros replaced, for example:"),
        _pre("https://tracker.example.com/postback?click_id={click_id}&event={event}&revenue={revenue}"
             "&country={country}"),
        para("Macros: {click_id}, {event}, {event_time}, {campaign_id}, {creative_id}, {advertiser_id}, "
             "{app_id}, {device_id}, {ip}, {country}, {revenue}, {currency}. Keep the token secret: anyone "
             "who has it can add events to your statistics."),
    )


def _validation() -> Any:
    rules = [
        ("Creative name", "Must not be empty.", v.creative_name("")),
        ("Click URL", "Mandatory where the creative type needs one.", v.click_url("")),
        ("URL fields", "A valid http or https address with a domain.", v.click_url("example")),
        ("Name", "Only letters, numbers, spaces and hyphens.", v.name("a_b")),
        ("URL list", "One or more comma-separated http(s) URLs, each ending with a slash.", v.url_list("x")),
        ("Geo-fence", "latitude,longitude,radius entries separated by |; at most "
                      f"{v.GEO_FENCE_MAX_POINTS} entries.", v.geo_fence("")),
        ("Geo-fence latitude", "-90 to 90.", v.geo_fence("91,0,1")),
        ("Geo-fence longitude", "-180 to 180.", v.geo_fence("0,181,1")),
        ("Geo-fence radius", f"{v.GEO_RADIUS_MIN} to {v.GEO_RADIUS_MAX:g}.", v.geo_fence("0,0,0.1")),
        ("Token text", "No spaces, no undefined or null, none of | * > < { } [ ] $ ~.", v.token_text("null")),
        ("File name", "Letters, digits, _ and - with single spaces, an extension; not starting with x.",
         v.file_name("x.csv")),
        ("Identifier", "Letters, digits, _ and -.", v.identifier("a b")),
        ("Free text", "Letters, digits, spaces, _, @ and !.", v.free_text("#")),
        ("First and last name", f"At most {v.FIRST_NAME_MAX_LENGTH} characters.",
         v.person_name("a" * (v.FIRST_NAME_MAX_LENGTH + 1), max_length=v.FIRST_NAME_MAX_LENGTH)),
        ("E-mail", "Required and well formed.", v.email("x")),
        ("Password", f"At least {v.PASSWORD_MIN_LENGTH} characters, with letters and numbers.", v.password("abc")),
        ("Colour", "#rrggbb.", v.hex_colour("red")),
    ]
    return (
        para("Forms and the API check input with the same rules; the message appears beside the field, or in ",
             code("data.fields"), " of a 422 reply."),
        table(("Field", "Rule", "Message"), [(name, rule, html.span({"className": "text-danger"}, msg))
                                             for name, rule, msg in rules]),
    )


def _keyboard() -> Any:
    return (
        items(
            (html.span(kbd("Tab"), " / ", kbd("Shift"), " + ", kbd("Tab")),
             "Moves through the menu, the top bar, form fields and buttons in reading order."),
            (html.span(kbd("Enter"), " or ", kbd("Space")),
             "Activates the focused button or link; column headings sort a table."),
            (kbd("Enter"), "Submits the form you are typing in."),
            (kbd("Esc"), "Leaves full screen (a browser shortcut)."),
        ),
        para("Icon-only buttons have spoken labels, the current menu item is announced as the current page, "
             "sorted columns announce their order, and messages appear in a live region that screen readers "
             "read out. Info messages stay until closed; success and error messages close after 10 seconds."),
        callout("Use your browser's zoom to enlarge the console; the layout adapts, and on narrow screens the "
                "menu folds behind the menu toggle."),
    )


CONSOLE_SECTIONS: tuple[Section, ...] = (
    Section("top-bar", "The top bar", _top_bar),
    Section("menu", "The menu", _menu),
    Section("dashboard", "The dashboard", _dashboard),
    Section("theme-settings", "Theme settings", _theme),
    Section("profile", "Profile and password", _profile),
    Section("brand-settings", "Brand settings (admin)", _brand_settings),
    Section("api", "The API", _api),
    Section("statistics-ingest", "Sending delivery statistics", _statistics_ingest),
    Section("postbacks", "Conversion postbacks", _postbacks),
    Section("validation", "Validation rules", _validation),
    Section("accessibility", "Keyboard and accessibility", _keyboard),
)
