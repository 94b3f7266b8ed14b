"""General documentation (/documentation/general): the building blocks of both manuals and the
sections of the general one. Content is data: each Section is (id, title, body builder)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from reactpy import html

from app.kernel import money as amounts
from app.kernel import validation as v
from app.kernel.config import get_settings
from app.kernel.i18n.formatters import file_size, money, short_number


class Section(NamedTuple):
    id: str  # anchor of the section heading, used by the table of contents
    title: str
    body: Callable[[], Any]  # builds the section's content (a tuple of elements)


# ---- building blocks, shared with console_content -------------------------------------------

def para(*children: Any) -> Any:
    return html.p(*children)


def code(text: str) -> Any:
    return html.code(text)


def kbd(text: str) -> Any:
    return html.kbd(text)


def callout(*children: Any, kind: str = "info", title: str = "") -> Any:
    heading = (html.strong({"className": "d-block mb-1"}, title),) if title else ()
    return html.div({"className": f"alert alert-{kind} small", "role": "note"}, *heading, *children)


def table(headers: tuple[str, ...], rows: list[tuple[Any, ...]] | tuple[tuple[Any, ...], ...], caption: str = "") -> Any:
    return html.div(
        {"className": "table-responsive mb-3"},
        html.table(
            {"className": "table table-sm table-striped align-middle mb-0"},
            *((html.caption({"className": "small text-body-secondary"}, caption),) if caption else ()),
            html.thead(html.tr(*[html.th({"scope": "col", "key": h}, h) for h in headers])),
            html.tbody(*[html.tr({"key": str(i)}, *[html.td({"key": str(j)}, cell) for j, cell in enumerate(row)])
                         for i, row in enumerate(rows)]),
        ),
    )


def items(*entries: tuple[Any, Any]) -> Any:
    """A list group of (label, explanation) pairs."""
    return html.div(
        {"className": "list-group mb-3"},
        *[html.div({"className": "list-group-item", "key": str(i)},
                   html.div({"className": "fw-semibold"}, label), html.div({"className": "small"}, text))
          for i, (label, text) in enumerate(entries)],
    )


def steps(*entries: Any) -> Any:
    return html.ol({"className": "mb-3"}, *[html.li({"key": str(i)}, e) for i, e in enumerate(entries)])


MENU_NOTE = "Your console's menu shows the sections your role has."


# ---- sections ---------------------------------------------------------------------------------

def _overview() -> Any:
    return (
        para("The console is a programmatic-advertising (demand-side) workspace. Advertisers and the agencies "
             "that run their accounts buy ad impressions on ad exchanges; the console is where they prepare what "
             "is bought, pay for it and see what it delivered."),
        para("Its working concepts are campaigns, creatives, funds, audiences, inventory lists (app lists) and "
             "reports. On the administration side it also covers users, agencies, DSPs, smart-app lists and "
             "exchange approvals. ", MENU_NOTE),
        para("The console is white-labelled: its name, logo, favicon, colours, footer and an optional "
             "Help & Support link come from the brand configured for the address you open it at."),
        callout("Every page shows only what your role may see, and every action is checked again on the "
                "server. Every change is recorded with who made it, including the real person behind an "
                "acting-as session."),
    )


def _roles() -> Any:
    rows = [
        (html.strong("ADMIN"), code("/admin/dashboard"),
         "Runs the whole platform: all users, agencies and advertisers, campaigns, creatives, funds, audiences, "
         "inventory lists, smart-app lists, DSPs, reports and exchange approvals; the brand settings and the "
         "maintenance switch. Can act as any agency or advertiser."),
        (html.strong("CO-ADMIN"), code("/co-admin/dashboard"),
         "Works like an admin with the same view of users, agencies, campaigns, creatives, funds, audiences, "
         "inventory lists, smart-app lists, reports and exchange approvals, but without the admin-only "
         "parts: adding users of any role, creating agencies, DSPs, and the brand settings. Can act as "
         "an agency or advertiser."),
        (html.strong("AGENCY"), code("/agency/dashboard"),
         "Manages its own advertisers and their campaigns, creatives, funds, audiences, inventory lists and "
         "reports. Can act as one of its advertisers. Sees API Docs when API access is enabled for it."),
        (html.strong("ADVERTISER"), code("/dashboard"),
         "Runs its own campaigns, creatives, funds, audiences, inventory lists and reports, and is the only "
         "role with a Balance. Sees API Docs when API access is enabled for it."),
    ]
    return (
        para("There are four roles. Each has its own home page, menu and set of pages; an address that is not "
             "in your role's set takes you back to your home page."),
        table(("Role", "Home page", "What it can do"), rows),
        callout(MENU_NOTE, " Help & Support appears for every role when the brand enables it; it opens the "
                "brand's support link in a new tab."),
    )


def _sign_up() -> Any:
    return (
        para("New accounts are advertiser accounts, attached to the agency of the brand you signed up with."),
        steps(
            ("Open ", code("/register"), " (the Create one link on the login page)."),
            "Enter your first and last name (letters, numbers, spaces and hyphens, at most 25 characters each), "
            "your company, your e-mail address and a password of at least 8 characters with letters and numbers.",
            "We e-mail you a 6-digit one-time code. It is valid for "
            f"{get_settings().otp_lifetime_s // 60} minutes; Send a new code replaces it.",
            "Enter the code and choose Verify. Your e-mail address is confirmed and you can log in.",
        ),
        callout("Logging in before verifying shows \"Please verify your email address first: we sent you a "
                "code.\" A code stops working after 5 wrong tries: ask for a new one.", kind="secondary"),
    )


def _logging_in() -> Any:
    return (
        para("Open ", code("/login"), ", enter your e-mail address and password and choose Log in. You land on "
             "your role's home page."),
        items(
            ("Incorrect email or password.", "The e-mail address or the password is wrong."),
            ("Too many failed sign-ins", "After 5 failed attempts on one account from one network (or 20 on any "
                                         "accounts from one network) within 15 minutes, that network's attempts "
                                         "are refused for 15 minutes. The account itself is never locked: its "
                                         "owner can still sign in from elsewhere, and gets an e-mail and a "
                                         "notification saying sign-ins were refused."),
            ("This account is disabled. Please contact support.", "An administrator has disabled the account."),
        ),
        callout("While the console is in maintenance, only admins and co-admins can work in it; signed-in "
                "agencies and advertisers see the page \"Site is Under Maintenance\".", kind="warning"),
    )


def _forgot_password() -> Any:
    return (
        steps(
            ("Choose Forgot password? on the login page (", code("/forgot-password"), ")."),
            "Enter your e-mail address and choose Send code. If the address has an account, a 6-digit code "
            "is e-mailed to it (the reply is the same either way, so nobody can probe for accounts).",
            "Enter the code and your new password, then choose Set new password.",
        ),
        para("Resetting the password logs the account out everywhere: log in again with the new password."),
    )


def _sessions() -> Any:
    return (
        items(
            ("Two-hour sessions", "A session lasts 2 hours and is renewed automatically while you work, "
                                  "shortly before it would end. If no open tab renews it, for example because "
                                  "the browser was closed, it ends and you log in again."),
            ("One logout for every tab", "Logging out in one tab logs out every tab of that browser within about "
                                         "a second."),
            ("Password changes", "Changing your password logs out your other sessions; this one stays open."),
        ),
        para("Pages where you edit, clone or bulk-edit campaigns or edit an inventory list watch for "
             "inactivity: after 5 minutes without mouse, keyboard, scroll or touch input they show a "
             "blocking prompt reading \"This tab was inactive for some time!\" with a Refresh button, which "
             "reloads the page so you continue with current data."),
    )


def _acting_as() -> Any:
    return (
        para("Support work often needs the customer's own view. The console lets you act as another account:"),
        table(("You are", "You can act as"), [
            ("ADMIN or CO-ADMIN", "any agency or advertiser account"),
            ("AGENCY", "one of your own advertisers"),
            ("ADVERTISER", "nobody"),
        ]),
        para("While acting, the top bar shows a badge \"Acting as name (role)\" and a Back button for each "
             "account under you: Back To Admin, Back To Co-Admin or Back To Agency. Going back restores that "
             "account and drops the sessions above it; an admin acting as an agency and then as one of its "
             "advertisers sees both Back To Agency and Back To Admin."),
        callout("Changes you make while acting are recorded with the account you act as and with you. Changing "
                "the password always changes your own password, never the other account's."),
    )


def _languages() -> Any:
    return (
        para("Choose the language from the translate button in the top bar: English, Spanish, German, "
             "Italian or Russian. The choice is remembered per browser. Text that is not yet translated appears in English."),
        callout("These two documentation pages are written in English in every language."),
    )


def _balance() -> Any:
    return (
        para("Only advertisers have a balance; it is shown as Balance in the top bar. It is the sum of the "
             "account's transactions: deposits, spend, refunds and adjustments, so it is always exact and can "
             "be audited line by line. Spend lowers it as campaigns deliver."),
        table(("Amount", "Shown as"), [("1234.5 dollars", code(money(1234.5))), ("minus 5 dollars", code(money(-5)))]),
        para("Money always has a dollar sign, thousands separators and two decimals, with the minus sign first. "
             "The separators are your language's: ", code(money(1234.5, language="gr")), " in German, ",
             code(money(-1234.5, language="rs")), " in Russian."),
        para("Amounts are typed the same way in every language: digits with a point before at most two decimals, "
             "commas only between thousands, a dollar sign if you like (", code("1,234.50"), ", ", code("$1,234.50"),
             "). Exponents such as ", code("1e3"), " are refused rather than read as a thousand. Each kind of "
             "amount has a ceiling, so a typo cannot cost a fortune:"),
        table(("Amount", "At most"), [(label, code(amounts.shown(amounts.FIELDS[field].maximum,
                                                                   amounts.FIELDS[field].unit)))
                                      for field, label in _AMOUNT_LABELS]),
    )


_AMOUNT_LABELS = (("total_budget", "Total or daily budget"), ("bid", "Bid, lowest or highest bid"),
                  ("amount", "Funds added in one entry"), ("margin", "Agency margin"))


def _number_formats() -> Any:
    return (
        para("Large counts are shortened so figures fit in tiles and charts:"),
        table(("Value", "Shown as", "Rule"), [
            ("950", code(short_number(950)), "below a thousand: unchanged"),
            ("1,234", code(short_number(1234)), "thousands: K"),
            ("5,600,000", code(short_number(5_600_000)), "millions: M"),
            ("7,000,000,000", code(short_number(7_000_000_000)), "billions: B"),
        ]),
        para("File sizes use 1024 per step with up to two decimals: ", code(file_size(1536)), ", ",
             code(file_size(1_048_576)), "."),
    )


def _glossary() -> Any:
    return (
        html.dl(
            {"className": "row mb-3"},
            *[part for term, text in (
                ("Impression", "One showing of an ad to a person."),
                ("Click", "A person tapping or clicking an ad and going to its click URL."),
                ("CTR", "Click-through rate: clicks divided by impressions, as a percentage."),
                ("CPM", "Cost per mille: the price of one thousand impressions."),
                ("Conversion", "An action you value after the click, such as an install or a purchase."),
                ("Postback", "A server-to-server call from your tracking system that reports a conversion or "
                             "other event to the platform."),
                ("Exchange", "A marketplace that auctions ad impressions from apps and sites in real time."),
                ("DSP", "Demand-side platform: the buying system that bids on exchanges for advertisers."),
                ("Creative", "The ad itself: an image, native, video or HTML unit with its tracking URLs."),
                ("Audience", "A group of users to target or exclude."),
                ("Inventory list", "A list of apps (an app list) to target or block."),
                ("Smart-app list", "A curated app list by category, genre and subgenre, kept by admins."),
                ("Geo-fence", "Points given as latitude,longitude,radius that limit where ads show."),
            ) for part in (html.dt({"className": "col-sm-3", "key": f"t-{term}"}, term),
                           html.dd({"className": "col-sm-9", "key": f"d-{term}"}, text))],
        ),
        html.h3({"className": "h6 mt-4"}, "Creative types and their URLs"),
        table(("Type", "Click URL", "Tracking URLs"), [
            ("image", "mandatory, one", "pixel URLs: optional, several"),
            ("native", "mandatory, one", "impression URL: optional, one"),
            ("video", "mandatory, one", "impression URLs: optional, several"),
            ("html", "none", "none (the markup carries its own)"),
        ]),
        para("A click URL must be a valid http or https address with a domain; otherwise the form says ",
             code(v.INVALID_URL), " Lists of URLs are separated by commas and each ends with a slash."),
    )


GENERAL_SECTIONS: tuple[Section, ...] = (
    Section("overview", "What the console is for", _overview),
    Section("roles", "Roles", _roles),
    Section("sign-up", "Signing up", _sign_up),
    Section("logging-in", "Logging in", _logging_in),
    Section("forgot-password", "Forgot password", _forgot_password),
    Section("sessions", "Sessions", _sessions),
    Section("acting-as", "Acting as another user", _acting_as),
    Section("languages", "Languages", _languages),
    Section("balance", "Balance and money", _balance),
    Section("number-formats", "Number formats", _number_formats),
    Section("glossary", "Glossary", _glossary),
)
