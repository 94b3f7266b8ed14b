"""Message catalogs: every language has every key, keeps the placeholders, is really translated,
and every dotted key the components ask for exists in English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.kernel.i18n.catalog import translator

ROOT = Path(__file__).resolve().parent.parent
CATALOG_DIR = ROOT / "app" / "kernel" / "i18n" / "catalogs"
LANGUAGES = ("sp", "gr", "it", "rs")

# Service errors reach the UI as English text and are translated by using that text as the key.
MESSAGE_KEYS = (
    "Incorrect email or password.",
    "Please verify your email address first: we sent you a code.",
    "This account is disabled. Please contact support.",
    "Email is required.",
    "Please enter a valid email address.",
    "Password is required.",
    "Password must contain letters and numbers.",
    "This field is required.",
    "An account with this email already exists.",
    "The code is wrong or has expired.",
    # refusals of the sign-in and mail limiter (app/access/throttle.py)
    "Too many failed sign-ins for this account. Try again in {n} minutes.",
    "Too many failed sign-ins from your network. Try again in {n} minutes.",
    "Sign-ins to this account are slowed after many failed attempts. Try again in {n} seconds, or reset your password.",
    "Too many codes were requested for this e-mail address. Try again in {n} minutes.",
    "Too many codes were requested from your network. Try again in {n} minutes.",
    "The current password is wrong.",
    # a new sign-in e-mail's proof, and what no API key may do (app/accounts/service.py, app/access/policy.py)
    "Enter your current password to change the e-mail you sign in with.",
    "Enter the code from your app to change the e-mail you sign in with.",
    "An API key cannot change sign-in credentials or API keys (e-mail, password, second factor, sign-in policy). "
    "Log in with your password to do this.",
    "You cannot manage the sign-in of this account.",
    "Choose a password different from the current one.",
    "Your session has ended. Please log in again.",
    "You do not have permission to do that.",
    "User not found.",
    "This account is disabled and cannot be entered.",
    "There is no such account to go back to.",
    "Use a colour like #4f46e5.",
    "Please enter a valid URL.",
    "Enter the Help & Support link to show the menu item.",
    "Upload a PNG, JPG, GIF, WEBP or ICO image.",
    "Creative name cannot be empty.",
    "Click URL is mandatory",
    "Invalid input. Please use only letters, numbers, spaces, and hyphens.",
    "Not an allowed value.",
    "Unknown setting.",
    "This sign-in link has expired. Please log in again.",
    "You cannot change the status of this account.",
    "This name is already in the list.",
    "This value is in use; retire it instead.",
    "This value no longer exists.",
    "API access is not enabled for this account.",
    "API key not found.",
    "You can have at most 5 active API keys. Revoke one first.",
    "Postbacks are not enabled for this account.",
    "Choose at least one event.",
    "Edit your own details on your profile page.",
    "Choose an active agency.",
    "Change your own password on your profile page.",
    "Only active accounts can reset their password.",
    "Choose at least one advertiser.",
    "A margin applies to advertisers only.",
    "Choose exchanges from the list.",
    "At most {n} characters.",  # a Message: one entry for every limit
    "Password must be at least {n} characters.",
    "Choose an operating system from the list.",
    "Choose a country from the list.",
    "This list has no such detail.",
    "Enter a date as YYYY-MM-DD.",
    "The end date must not be before the start date.",
    # money (app/kernel/money.py: the one parser) and the amount rules (app/campaigns/service.py)
    "Enter an amount, e.g. {example}.",
    "Enter the amount in digits 0-9, e.g. {example}.",
    "Use a point for decimals and commas only between thousands, e.g. 1,234.50.",
    "Write the amount out in full, e.g. 1000 rather than 1e3.",
    "Enter an amount with at most two decimals.",
    "Enter an amount of zero or more.",
    "At most {limit}.",
    "From -{limit} to {limit}.",
    "The daily budget cannot exceed the total budget.",
    "The total budget cannot be below the daily budget.",
    "The highest bid must not be below the lowest.",
    "The lowest bid cannot be above the highest bid.",
    "The bid cannot exceed the highest bid.",
    "The highest bid cannot be below the bid.",
    "The bid cannot be below the lowest bid.",
    "The lowest bid cannot be above the bid.",
    "The total budget cannot be below the {spent} already spent.",
    # funds (app/funds/service.py, app/funds/card_payments.py)
    "Enter an amount other than zero.",
    "A deposit or refund adds money: enter a positive amount.",
    "Choose deposit, refund or adjustment.",
    "Choose an advertiser from the list.",
    "Card payments start at 0.50.",
    "Card payments are not set up on this console.",
    "The card payment service could not be reached. Please try again.",
    "The webhook signature is not valid.",
    "Payment not found.",
    "Give a reason for the rejection.",
    "Choose approve or reject.",
    "Choose at least one request.",
    "Request not found.",
    "The campaign is archived.",
    # campaigns: flights, activation, clones, retired targeting (app/campaigns/service.py, campaign_targeting.py)
    "This end date has passed: choose one in the future.",
    "This campaign's flight has ended: extend the end date before activating it.",
    "Add funds before activating this campaign: the advertiser's balance is ${balance}.",
    "The original's flight has ended: give the clone new dates.",
    "Retired, cannot be chosen: {names}.",
    # DSP connections (app/dsps/service.py)
    "DSP not found.",
    "A DSP with this name already exists.",
    "Enter the DSP's address, starting with http:// or https://.",
    "This DSP is inactive. Activate it to sync.",
    "Must not contain spaces, the words undefined or null, or any of | * > < { } [ ] $ ~",  # app/kernel/validation.py token_text (a DSP's API key)
    "Use only letters, digits, spaces, _, @ and !.",  # app/kernel/validation.py free_text (an API key's label)
    # app/kernel/validation.py file_name and csv_file_name (the running-apps export's name), identifier (a DSP's seat id)
    "File names use letters, digits, _ and - with single spaces, an extension, and may not start with x.",
    "The file is a CSV: end its name with .csv.",
    "Use only letters, digits, _ and -.",
    "Not an app id (com.example.app, id123456789) or a domain (example.com).",
    "Longer than 255 characters.",
    "The file is not UTF-8 text: save it as CSV (UTF-8) and upload it again.",
    "The file is empty.",
    "The file is larger than 8 MB: split it and upload the parts.",
    "The file has more than 200,000 lines: split it and upload the parts.",
    "The file is not CSV text (it holds binary data). Upload a .csv or .txt file, one entry a line.",
    "Inventory list not found.",
    "Smart-app list not found.",
    "Choose allow or block.",
    "An archived list cannot be changed; restore it first.",
    "Choose a category, a genre of it and (optionally) one of its subgenres.",
    "Give the entries the list should hold.",
    "Audience not found.",
    "Give the audience a name.",
    "This advertiser already has an audience of that name.",
    "Choose a device-id list or retargeting.",
    "Choose an event.",
    "This advertiser has recorded no such event.",
    "Enter a whole number of days from 1 to 540.",
    "Only a device-id audience takes files of ids.",
    "The file holds no device ids (IDFA or GAID, one a line).",
    "A campaign cannot both allow and block the audience.",
    "The file is larger than 256 MB. Split it and append the parts one after another.",
    # the database or the data disk at fault (app/kernel/faults.py)
    "The database is not answering; nothing was saved. Try again in a moment.",
    "The database is busy; nothing was saved. Try again in a moment.",
    "The server's disk is full; nothing was saved. Try again once space has been freed.",
    "The server cannot write its files (a data folder is missing, read-only or not permitted); nothing was saved. "
    "Tell your administrator.",
    # Two-factor sign-in (app/accounts/second_factor.py, app/access/throttle.py)
    "The code is wrong or was already used. Enter the current code from your app.",
    "Start the set-up again: this code was for no set-up in progress.",
    "Your sign-in has expired. Please enter your password again.",
    "Your role must use two-factor sign-in: it cannot be turned off.",
    "Turn on two-factor sign-in for your own account first (your profile), so you are not locked out.",
    "Enter the code from your authenticator app.",
    "Your role must use two-factor sign-in: set it up to continue.",
    "Two-factor sign-in is already on. Turn it off first to move it to another app.",
    "This account has no second factor to reset.",
    "Enter the code from your app.",
    "Too many wrong codes for this account. Try again in {n} minutes.",
    "Too many wrong codes from your network. Try again in {n} minutes.",
    "Codes for this account are slowed after many wrong attempts. Try again in {n} seconds.",
    # restore from history (app/history/restore.py, app/campaigns/restore.py, app/creatives/restore.py)
    "This change is not in the record's change log.",
    "A new record had no values before: re-apply the values it was created with instead.",
    "Nothing this change touched can be restored.",
    "Not a setting a restore can set.",
    "The status changes through its own actions (activate, pause, archive), which check their own rules.",
    "A campaign's advertiser never changes.",
    "The campaign a clone was copied from: not a setting.",
    "Taken from the creative's file, not set by hand.",
    "A file: upload it again on the creative's form.",
    "The change log keeps only the markup's size and fingerprint, not the markup.",
    "A creative's type cannot change.",
    "The status changes through its own actions (pause, resume, archive).",
    "A creative's advertiser never changes.",
    "Which campaigns show it: change them on the creative's campaigns card.",
    # the delivery check (app/campaigns/diagnosis, app/funds/diagnosis.py, app/creatives/diagnosis.py)
    "The campaign is a draft: only an active campaign delivers.",
    "The campaign is paused: only an active campaign delivers.",
    "The campaign is completed: only an active campaign delivers.",
    "The campaign is archived: only an active campaign delivers.",
    "Activate it",
    "Clone it for a new flight",
    "The flight starts on {starts}: nothing is bought before then.",
    "The flight ended on {ends}.",
    "Change the dates",
    "The total budget of ${budget} is spent (${spent} so far).",
    "Today's budget of ${budget} is spent (${spent} today): delivery resumes tomorrow ({zone}).",
    "Raise the budget",
    "There is no exchange this campaign may run on.",
    "Refused on {exchanges}.",
    "Waiting for approval on {exchanges}.",
    "Review the exchange approvals",
    "Choose other exchanges",
    "Each user sees the ads at most {count} times an hour: this caps how much can be bought per user.",
    "Each user sees the ads at most {count} times a day: this caps how much can be bought per user.",
    "Each user sees the ads at most {count} times a week: this caps how much can be bought per user.",
    "Change the frequency cap",
    "None of the advertiser's delivery of the last {days} days matched this targeting ({targeting}): there may be little or no inventory for it.",
    "Widen the targeting",
    "The bid of ${bid} {strategy} is below the ${median} that comparable delivery cleared at in the last {days} days: it will win few auctions.",
    "Raise the bid",
    "The advertiser's balance is ${balance}: nothing can be bought until funds are added.",
    "The advertiser's balance of ${balance} is less than one day's budget (${day}): delivery will stop today.",
    "Add funds",
    "No creative is attached: there is no ad to show.",
    "None of the {count} attached creatives is active ({creatives}).",
    "Attach an active creative",
    # new recovery codes (app/accounts/second_factor.py renew_recovery_codes)
    "Enter the current code from your app, or your password.",
    "The password is wrong.",
    "Two-factor sign-in is off: there are no recovery codes to replace.",
    # bulk edits' row results (app/kernel/i18n/refusals.py): status moves (app/history/status.py), the rows' own
    # refusals, and the targeting checks a row can fail (app/supply/list_targeting.py, audience_rules.py)
    "{An} {current} campaign cannot become {wanted}.",
    "{An} {current} creative cannot become {wanted}.",
    "Campaign not found.",
    "Creative not found.",
    "Saved",
    "Status changed",
    "An archived campaign cannot be changed; clone it instead.",
    "This advertiser may not buy on some of these exchanges.",
    "Not inventory lists of this campaign's advertiser: {ids}.",
    "Archived lists cannot be chosen: {names}.",
    "Block lists cannot be allowed: {names}.",
    "Allow lists cannot be blocked: {names}.",
    "Choose active smart-app lists: {ids} cannot be chosen.",
    "Not audiences of this advertiser: {ids}.",
    "Inactive audiences (activate them or take them out): {names}.",
    # what a bulk page's Apply asks for (app/campaigns/bulk.py, app/creatives/bulk.py)
    "Choose something to change.",
    "Choose at least one field to change.",
    "Choose exchanges to add or remove.",
    "An exchange cannot be both added and removed.",
    "Choose at least one campaign.",
    "Choose at least one creative.",
    "At most {limit} campaigns at a time.",
    "At most {limit} creatives at a time.",
    # a save made from an older copy of a campaign or creative (app/history/versions.py)
    "Changed by {who} at {when}: {fields}. Reload to see the changes.",
    "Someone else changed this while you saved. Reload to see the changes.",
    "Not one of {allowed}: choose one of them, or leave it empty for all.",
    "The file's columns could not be told apart: separate them with commas, semicolons or tabs, the same on every line, and upload it again.",
    "{size} is not a banner size. Use one of the IAB sizes: {sizes}.",
    "A native icon is square (as 128x128); this picture is {size}.",
    "A native main image is {ratios} (as 1200x627 or 627x627); this one is {size}.",
    "A video is {ratios} (as 1280x720); this one is {size}.",
    "The file's size could not be read.",
    # moving money between an agency's advertisers (app/funds/transfers.py)
    "Choose another advertiser to move the money to.",
    "Money moves only between advertisers of one agency.",
    "Enter an amount above zero.",
    "At most {available} can be moved: the balance of {name}.",
)

# Keys whose text may stay the same as English: product names, industry terms, loanwords.
ALLOWED_SAME: dict[str, frozenset[str]] = {
    "sp": frozenset({"changelog.exchange_approval.field.exchange", "exchanges.card_title", "exchanges.col.exchange", "menu.exchanges", "dashboard.kpi.cpa", "dashboard.kpi.ecpm", "dashboard.by.exchange", "campaigns.traffic.web", "changelog.field.postback_enabled", "config.exchanges", "config.postback_enabled", "topbar.view_new", "dashboard.kpi.ctr", "settings.favicon",
                     "theme.layout.vertical", "theme.layout.horizontal"}),
    "gr": frozenset({"changelog.exchange_approval.field.status", "exchanges.col.status", "dashboard.kpi.cpa", "dashboard.kpi.ecpm", "creatives.details", "campaigns.optional", "campaigns.field.name", "campaigns.col.name", "campaigns.col.total_budget",
                     "changelog.field.postback_enabled", "changelog.field.status", "config.postback_enabled", "users.filter_status", "topbar.view_new", "dashboard.kpi.ctr", "settings.favicon", "settings.logo",
                     "menu.dashboard", "topbar.view_old", "role.admin", "role.co_admin", "theme.layout",
                     "theme.layout.horizontal", "field.code", "dashboard.kpi.conversions",
                     "dashboard.col.name", "dashboard.col.status", "bulk.field.status"}),
    "it": frozenset({"changelog.exchange_approval.field.exchange", "exchanges.card_title", "exchanges.col.exchange", "menu.exchanges", "dashboard.kpi.cpa", "dashboard.kpi.ecpm", "dashboard.by.exchange", "changelog.creative.field.asset_id", "campaigns.device.tablet", "campaigns.col.total_budget", "changelog.field.email", "changelog.field.password_hash", "users.account", "topbar.view_new", "dashboard.kpi.ctr", "settings.favicon", "settings.logo",
                     "menu.dashboard", "topbar.view_old", "usermenu.title", "theme.layout",
                     "field.password", "profile.password"}),
    "rs": frozenset({"dashboard.kpi.cpa", "dashboard.kpi.ecpm", "changelog.field.email", "topbar.view_new", "dashboard.kpi.ctr"}),
}

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_KEY_CALL = re.compile(r'\bt\(\s*"([a-z0-9_]+(?:\.[a-z0-9_]+)+)"')


def _load(language: str) -> dict[str, str]:
    return json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))


ENGLISH = _load("en")
REFERENCE = {**ENGLISH, **{message: message for message in MESSAGE_KEYS}}


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_has_exactly_the_english_keys_plus_messages(language: str) -> None:
    keys = set(_load(language))
    assert not set(REFERENCE) - keys, f"missing in {language}"
    assert not keys - set(REFERENCE), f"unknown in {language}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_follows_the_english_key_order(language: str) -> None:
    assert list(_load(language)) == [*ENGLISH, *MESSAGE_KEYS]


# Values only English grammar uses (app/history/status.py: "An archived campaign", "A paused creative").
ENGLISH_ONLY_PLACEHOLDERS = frozenset({"{An}"})


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_match_english(language: str) -> None:
    wrong = {key: text for key, text in _load(language).items()
             if key in REFERENCE and set(_PLACEHOLDER.findall(text))
             != set(_PLACEHOLDER.findall(REFERENCE[key])) - ENGLISH_ONLY_PLACEHOLDERS}
    assert not wrong


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_value_is_empty(language: str) -> None:
    assert not [key for key, text in _load(language).items() if not text.strip()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_is_really_translated(language: str) -> None:
    own = _load(language)
    same = {key for key, text in own.items() if REFERENCE.get(key) == text}
    assert same <= ALLOWED_SAME[language], f"left in English: {sorted(same - ALLOWED_SAME[language])}"
    assert len(same) <= 0.1 * len(own)


def test_required_account_titles() -> None:
    assert translator("gr")("usermenu.title") == "Konto"
    assert translator("sp")("usermenu.title") == "Cuenta"
    assert translator("rs")("usermenu.title") == "Аккаунт"
    assert translator("gr")("topbar.back_to_admin") == "Zurück zu Admin"


def test_server_message_is_translated_by_its_english_text() -> None:
    assert translator("gr")("User not found.") == "Benutzer nicht gefunden."
    assert translator("en")("User not found.") == "User not found."


def test_unknown_language_falls_back_to_english() -> None:
    assert translator("xx")("usermenu.title") == ENGLISH["usermenu.title"]
    assert translator(None)("login.submit") == ENGLISH["login.submit"]


def test_key_missing_everywhere_returns_the_key() -> None:
    assert translator("gr")("no.such.key") == "no.such.key"


def test_placeholders_are_filled_in() -> None:
    assert translator("gr")("dashboard.welcome", name="Ada") == "Willkommen, Ada"


def test_every_key_used_by_the_components_exists_in_english() -> None:
    """Literal dotted keys passed to t(...) / console.t(...); f-string keys cannot be scanned."""
    used: dict[str, str] = {}
    for path in sorted((ROOT / "components").rglob("*.py")):
        for key in _KEY_CALL.findall(path.read_text(encoding="utf-8")):
            used.setdefault(key, str(path.relative_to(ROOT)))
    assert used, "the scan found no keys at all"
    missing = {key: where for key, where in used.items() if key not in ENGLISH}
    assert not missing, f"keys used in components but missing from en.json: {missing}"


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_the_name_and_password_rules_speak_every_language(language: str) -> None:
    from app.kernel import validation as v

    t = translator(language)
    for message in (v.password("short1"), v.password("lettersonly"), v.person_name("x" * 26, max_length=25),
                    v.name("Sale!"), v.email("nope")):
        assert message is not None
        assert t(message) != message, f"{message!r} shows in English in {language}"


# Informal (tú) forms; the Spanish catalog addresses the user as usted throughout, as consoles do (usted is what
# most of it used when the two were mixed). Words only: pronouns, tú verb forms and tú imperatives, with their
# enclitic pronouns (Introdúcelo, Ponte), which the usted forms spell differently (Introdúzcalo, Póngase).
_TU_WORDS = (
    "tu", "tus", "tú", "ti", "te", "contigo", "tuyo", "tuya", "tuyos", "tuyas",
    "puedes", "podrás", "tienes", "tendrás", "quieres", "debes", "estás", "eres", "has", "necesitas", "recibirás",
    "verás", "sabes", "haces",
    "introduce", "introdúcelo", "introdúcela", "elige", "haz", "vuelve", "intenta", "crea", "añade", "guarda",
    "escribe", "revisa", "selecciona", "sube", "abre", "consulta", "pulsa", "empieza", "comienza", "ponte",
    "pide", "contacta", "anúnciate", "regístrate", "conéctate", "cópiala", "cópialo", "guárdala", "guárdalo",
    "revócala", "déjala", "colócalas", "entrégala", "añádelos", "actívalo", "compruébalo", "recárgala",
)
# An infinitive with te attached (anunciarte, registrarte): the usted form attaches se.
_TU = re.compile(r"\b(?:" + "|".join(_TU_WORDS) + r"|\w{3,}(?:ar|er|ir)te)\b", re.IGNORECASE)


def test_spanish_says_usted_throughout() -> None:
    informal = {key: text for key, text in _load("sp").items() if _TU.search(text)}
    assert not informal, f"tú in an usted catalog: {informal}"


def test_the_tu_markers_find_what_they_are_for() -> None:
    for informal in ("Empieza a anunciarte en pocos minutos.", "Introdúcelo a continuación.",
                     "Ponte en contacto con el soporte.", "¿Has olvidado tu contraseña?"):
        assert _TU.search(informal), informal
    for formal in ("Empiece a anunciarse en pocos minutos.", "Introdúzcalo a continuación.",
                   "Póngase en contacto con el soporte.", "¿Ha olvidado su contraseña?", "Compártala de forma segura",
                   "Claves que esta cuenta usa", "Cuenta de {role}", "Parte del gasto"):
        assert not _TU.search(formal), formal


@pytest.mark.parametrize("language", LANGUAGES)
def test_messages_built_with_values_speak_every_language_whatever_the_values(language: str, monkeypatch) -> None:
    """One catalog entry per message, not per value: a limit nobody wrote a translation for still translates."""
    from app.kernel import validation as v

    t = translator(language)
    monkeypatch.setattr(v, "PASSWORD_MIN_LENGTH", 12)
    for message, value in ((v.person_name("x" * 31, max_length=30), "30"), (v.password("abc12345"), "12"),
                           (v.person_name("x" * 26, max_length=25), "25"), (v.password("abc1"), "12")):
        assert message is not None and value in message
        assert t(message) != message, f"{message!r} shows in English in {language}"
        assert value in t(message), f"{t(message)!r} lost the value {value}"


def test_a_message_built_with_values_is_its_english_text() -> None:
    import pickle

    from app.kernel.i18n.catalog import Message

    message = Message("At most {n} characters.", n=25)
    assert message == "At most 25 characters." and json.dumps({"m": message}) == '{"m": "At most 25 characters."}'
    assert translator("en")(message) == "At most 25 characters."
    again = pickle.loads(pickle.dumps(message))
    assert translator("gr")(again) == translator("gr")(message) != message


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_the_length_messages_show_translated_on_the_page(language: str, demo_ids: dict[str, int]) -> None:
    """What a user who signs up with a short password and a long first name reads beside the fields."""
    import asyncio

    from components.accounts.auth.register import RegisterPage
    from tests.render import _layout, handler_target, logged_out_console, run_async, settle, text_of, walk

    typed = {"email": "new@shop.example", "password": "abc1", "first_name": "x" * 26, "last_name": "Lane",
             "company_name": "Shop"}
    submit = {"type": "submit", "target": [*({"tagName": "INPUT", "name": k, "type": "text", "value": v}
                                             for k, v in typed.items()),
                                           {"tagName": "BUTTON", "name": "", "type": "submit", "value": ""}]}

    async def scenario() -> dict:
        async with _layout(RegisterPage, logged_out_console(language), "/register") as layout:
            model = await settle(layout, (await layout.render())["model"])
            await layout.deliver({"type": "layout-event", "target": handler_target(model, "onSubmit"), "data": [submit]})
            await asyncio.sleep(0.05)
            return await settle(layout, model)

    model = run_async(scenario())
    shown = {n["attributes"]["data-field-error"]: text_of(n) for n in walk(model)
             if n.get("attributes", {}).get("data-field-error")}
    own = _load(language) if language != "en" else REFERENCE
    assert shown["password"] == own["Password must be at least {n} characters."].format(n=8)
    assert shown["first_name"] == own["At most {n} characters."].format(n=25)
    if language != "en":
        assert shown["password"] != "Password must be at least 8 characters."
        assert shown["first_name"] != "At most 25 characters."


def test_a_count_picks_its_languages_plural_form() -> None:
    assert translator("en")("explain.rows_n", count=1) == "1 row"
    assert translator("en")("explain.rows_n", count=0) == "0 rows"
    assert translator("gr")("explain.batches_n", count=1) == "1 Lieferung"
    assert translator("gr")("explain.batches_n", count=2) == "2 Lieferungen"
    # Russian has three forms: one (1, 21), few (2-4, 22-24), many (0, 5-20, 11-14, 25).
    left = translator("rs")
    assert [left("twofactor.codes_left", count=n).split()[2] for n in (1, 21, 3, 24, 5, 11, 12, 0)] == \
        ["код", "код", "кода", "кода", "кодов", "кодов", "кодов", "кодов"]
