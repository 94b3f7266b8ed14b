"""The security headers of app/web/csp.py on what the server sends, and a page shell with no inline script (the
browser side is tests/e2e/test_content_security_policy.py)."""

from __future__ import annotations

import re

from sqlmodel import Session, select
from starlette.testclient import TestClient

from app.kernel.db import run
from app.main import create_app
from app.settings import brand_theme
from app.settings.models import CompanyConfig
from app.web import csp


def test_pages_carry_the_policy_and_the_shell_has_no_inline_script(demo_ids) -> None:
    with TestClient(create_app(), base_url="http://testserver") as client:
        shell = client.get("/login")
        assert shell.headers["content-security-policy"] == csp.PAGE_POLICY
        assert shell.headers["permissions-policy"] == csp.PERMISSIONS_POLICY
        assert shell.headers["cross-origin-opener-policy"] == "same-origin"
        assert "strict-transport-security" not in shell.headers  # plain http: not promised
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", shell.text, flags=re.S)
        assert scripts and all('src="/static/' in attributes and not body for attributes, body in scripts), scripts
        assert client.get("/docs").headers["content-security-policy"] == csp.DOCS_POLICY
        frame = client.get(csp.CREATIVE_FRAME_PATH)
        assert frame.headers["content-security-policy"] == csp.CREATIVE_FRAME_POLICY
        assert "<script src=" in frame.text
        assert client.get("/api/health").headers["content-security-policy"] == csp.PAGE_POLICY


def test_strict_transport_security_only_over_https(demo_ids) -> None:
    with TestClient(create_app(), base_url="https://testserver") as client:
        assert client.get("/login").headers["strict-transport-security"] == csp.STRICT_TRANSPORT_SECURITY


def test_the_brand_stylesheet_takes_only_hex_colours(demo_ids) -> None:
    with TestClient(create_app(), base_url="http://testserver") as client:
        sheet = client.get("/theme.css", params={"primary": "FF0000", "navbar": "red;}body{display:none"})
        assert sheet.headers["content-type"].startswith("text/css")
        assert "--dsp-primary:#ff0000;" in sheet.text
        assert "--dsp-navbar:#111827;" in sheet.text and "display" not in sheet.text


def _add_brand(db: Session, *, host: str, primary: str) -> None:
    db.add(CompanyConfig(host=host, name="Acme Ads", primary_color=primary))


def _set_primary(db: Session, *, host: str, primary: str) -> None:
    db.exec(select(CompanyConfig).where(CompanyConfig.host == host)).one().primary_color = primary


def test_the_page_shell_holds_its_first_paint_for_this_hosts_colours(demo_ids) -> None:
    """A branded console must not show the default colours first: the shell's <head> links /theme.css, which
    answers the requesting host's colours as they are now, and revalidates so a brand change is seen."""
    run(_add_brand, host="ads.acme.example", primary="#0a7f3c")
    with TestClient(create_app(), base_url="http://ads.acme.example") as client:
        head = client.get("/login").text.split("</head>")[0]
        assert f'<link rel="stylesheet" href="{brand_theme.PATH}">' in head
        sheet = client.get(brand_theme.PATH)
        assert "--dsp-primary:#0a7f3c;" in sheet.text and sheet.headers["cache-control"] == "no-cache"
        etag = sheet.headers["etag"]
        assert client.get(brand_theme.PATH, headers={"if-none-match": etag}).status_code == 304
        run(_set_primary, host="ads.acme.example", primary="#7c2d12")
        changed = client.get(brand_theme.PATH, headers={"if-none-match": etag})
        assert changed.status_code == 200 and "--dsp-primary:#7c2d12;" in changed.text
    with TestClient(create_app(), base_url="http://other.example") as client:
        assert "--dsp-primary:#4f46e5;" in client.get(brand_theme.PATH).text  # the default brand's colours


def test_static_files_revalidate_but_the_shell_is_always_sent_whole(demo_ids) -> None:
    with TestClient(create_app(), base_url="http://testserver") as client:
        first = client.get("/static/css/console.css")
        assert first.status_code == 200 and first.headers["etag"]
        again = client.get("/static/css/console.css", headers={"if-none-match": first.headers["etag"]})
        assert again.status_code == 304 and not again.content
        shell = client.get("/login")
        assert "etag" not in shell.headers and shell.headers["cache-control"] == "no-store"
        resent = client.get("/login", headers={"if-none-match": '"anything"', "if-modified-since": "x"})
        assert resent.status_code == 200 and 'id="app"' in resent.text
