"""Hostile uploads on every upload route: a wrong type, a truncated file, a decompression bomb, a file past the
route's limit (refused from its Content-Length, or while a chunked body streams in, without reading the rest)
and hostile file names. Each refusal is a 4xx in the envelope naming the field, and leaves nothing behind: no
file in the data directory, no row (every write is audited, so the audit log is counted too).

Routes: creative files (image, icon, video; also the spec's withOutRole/upload), the brand's logo and favicon,
inventory-list and smart-app-list CSVs, audience device ids, statistics CSV batches, and the geo-fence CSV (read
in the browser and handed to campaign_targeting.geo_fence_from_csv)."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import select

from app.campaigns.targeting import geo_fence_from_csv
from app.creatives.models import CreativeAsset
from app.history.models import AuditEntry
from app.kernel.config import get_settings
from app.kernel.db import run, session_scope
from app.kernel.errors import Invalid
from app.kernel.uploads import DISPLAY_NAME_CHARS, BodyLimit, shown_file_name
from app.main import upload_limits
from app.settings import company
from app.settings.models import CompanyConfig
from app.supply import app_entries, audience_devices
from app.supply.models import AppListEntry, AudienceDevice, SmartAppEntry
from tests.helpers import bearer_headers
from tests.media_files import image_bytes, mp4_bytes, png_bomb, solid_png
from tests.render import run_async

IDFA = "6D92078A-8246-4BA4-AE5B-76104861E7DC"
EXE = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + b"\x00" * 200 + b"This program cannot be run in DOS mode"
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n" + bytes(range(256)) * 4
HOSTILE_NAMES = ["../../etc/passwd", "..\\..\\x.png", "a\x00b.png", "x" * 500 + ".png",
                 "<script>window.__xss=1</script>.png", "invoice\u202egnp.exe", "\u2066x\u2069.png", ".."]
CSV_ROUTES = ("/api/uploads/inventory-list", "/api/uploads/smart-app-list")


def noisy_image(fmt: str = "PNG") -> bytes:
    """An image whose compressed data fills the file (random pixels), so cutting it loses pixels."""
    import os
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.frombytes("RGB", (120, 100), os.urandom(120 * 100 * 3)).save(out, format=fmt)
    return out.getvalue()


# --- what an upload leaves behind ---------------------------------------------------------------------------

def _files() -> set[str]:
    data = get_settings().data_dir
    skipped = (".db", ".db-wal", ".db-shm", ".duckdb", ".duckdb.wal")
    return {str(p.relative_to(data)) for p in data.rglob("*") if p.is_file() and not p.name.endswith(skipped)}


def _rows() -> dict[str, Any]:
    with session_scope() as db:
        counts = {model.__name__: db.exec(select(func.count()).select_from(model)).one()
                  for model in (AuditEntry, CreativeAsset, AppListEntry, SmartAppEntry, AudienceDevice)}
        counts["branding"] = [(c.logo_file, c.favicon_file) for c in db.exec(select(CompanyConfig))]
        return counts


@pytest.fixture
def unchanged() -> Iterator[Callable[[], None]]:
    """Call it after a refusal: asserts no file appeared in the data directory and no row changed."""
    files, rows = _files(), _rows()

    def check() -> None:
        assert _files() == files
        assert _rows() == rows
    yield check


def refused(reply: Any, field: str, status: int | tuple[int, ...] = 422) -> str:
    """The refusal's message for `field`, after checking it is a 4xx in the envelope naming that field."""
    statuses = (status,) if isinstance(status, int) else status
    assert reply.status_code in statuses, reply.text
    body = reply.json()
    assert body["success"] is False and body["code"] == reply.status_code
    fields = body["data"]["fields"]
    assert field in fields and fields[field] and field in body["message"], body
    return str(fields[field])


# --- the routes ---------------------------------------------------------------------------------------------

@pytest.fixture
def targets(client) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    admin = bearer_headers(client, "admin@demo.example")
    me = bearer_headers(client, "advertiser@demo.example")
    applist = client.post("/api/inventory-lists", headers=me, json={"name": "News", "kind": "allow", "entries": ""})
    assert applist.status_code == 201, applist.text
    smart = client.post("/api/admin/create-smart-app-list", headers=admin,
                        json={"name": "Games", "category_id": "36", "genre_id": "6014", "subgenre_id": "7001"})
    assert smart.status_code == 200, smart.text
    audience = client.post("/api/audiences", headers=me, json={"name": "Buyers", "kind": "device_ids"})
    assert audience.status_code == 201, audience.text
    config_id = run(company.branding_for_host, host="").id
    return {"admin": admin, "me": me, "applist": applist.json()["data"]["list"]["id"],
            "smart": smart.json()["data"]["list"]["id"], "audience": audience.json()["data"]["id"], "config": config_id}


def post_creative(client, t, name: str, content: bytes, purpose: str = "image",  # type: ignore[no-untyped-def]
                  path: str = "/api/uploads/creative") -> Any:
    return client.post(path, headers=t["me"], data={"purpose": purpose}, files={"file": (name, content, "image/png")})


def post_branding(client, t, name: str, content: bytes, kind: str = "logo") -> Any:  # type: ignore[no-untyped-def]
    return client.post(f"/api/company-config/{t['config']}/{kind}", headers={**t["admin"], "Accept": "application/json"},
                       files={"file": (name, content, "image/png")})


def post_csv(client, t, route: str, name: str, content: bytes) -> Any:  # type: ignore[no-untyped-def]
    if route.endswith("inventory-list"):
        return client.post(route, headers=t["me"], data={"applist_id": str(t["applist"])},
                           files={"file": (name, content, "text/csv")})
    return client.post(route, headers=t["admin"], data={"list_id": str(t["smart"])},
                       files={"file": (name, content, "text/csv")})


def post_devices(client, t, name: str, content: bytes) -> Any:  # type: ignore[no-untyped-def]
    return client.post(f"/api/audiences/{t['audience']}/devices", headers=t["me"],
                       files={"file": (name, content, "text/plain")})


# --- wrong types, truncated files, bombs --------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/uploads/creative", "/api/withOutRole/upload"])
def test_creative_files_that_are_not_what_they_claim(client, targets, unchanged, path):
    jpeg, mp4 = noisy_image("JPEG"), mp4_bytes()
    for name, content, purpose in (
        ("setup.png", EXE, "image"),                       # an .exe named .png
        ("report.png", PDF, "icon"),
        ("cut.png", noisy_image()[:-400], "image"),        # truncated PNG
        ("cut.jpg", jpeg[: len(jpeg) // 2], "image"),      # truncated JPEG
        ("bomb.png", png_bomb(30_000, 30_000), "image"),   # 900 million pixels declared in a few bytes
        ("movie.mp4", image_bytes(), "video"),             # a PNG as a video
        ("cut.mp4", mp4[: len(mp4) // 2], "video"),        # truncated MP4
        ("empty.png", b"", "image"),
    ):
        message = refused(post_creative(client, targets, name, content, purpose, path), "file")
        assert "Traceback" not in message
    unchanged()


def test_branding_images_that_are_not_what_they_claim(client, targets, unchanged):
    for kind in ("logo", "favicon"):
        for name, content in (("logo.png", EXE), ("logo.png", PDF), ("cut.png", noisy_image()[:-400]),
                              ("cut.jpg", noisy_image("JPEG")[:3000]), ("bomb.png", png_bomb(30_000, 30_000)),
                              ("logo.png", b""), ("logo.ico", b"\x00\x00\x01\x00" + b"\x01" * 40)):
            refused(post_branding(client, targets, name, content, kind), kind)
    unchanged()
    good = post_branding(client, targets, "x.jpeg", image_bytes(64, 64, "PNG"))
    assert good.status_code == 200, good.text
    assert good.json()["data"]["logoSrc"].endswith(".png")  # the format read from the bytes, not the name's


@pytest.mark.parametrize("route", CSV_ROUTES)
def test_list_csvs_that_are_not_text(client, targets, unchanged, route):
    for name, content in (("apps.csv", PDF), ("apps.csv", EXE), ("apps.csv", image_bytes()),
                          ("apps.csv", "com.a.b\n".encode("utf-16")), ("apps.csv", b"\xff\xfe\xfa bad utf-8\n"),
                          ("apps.csv", b"")):
        refused(post_csv(client, targets, route, name, content), "file")
    unchanged()


def test_device_id_files_that_hold_no_ids(client, targets, unchanged):
    for content in (PDF, EXE, image_bytes(), b"", b"\x1f\x8b\x08\x00" + bytes(300)):  # the last a gzip header
        refused(post_devices(client, targets, "ids.txt", content), "file")
    unchanged()


def test_statistics_csv_that_is_not_text(client, targets, unchanged):
    for content in (PDF, EXE, b"\xff\xfe\xfa\n"):
        reply = client.post("/api/statistics/batches/csv", params={"batch_id": "hostile-1"},
                            headers={**targets["admin"], "Content-Type": "text/csv"}, content=content)
        assert 400 <= reply.status_code < 500 and reply.json()["success"] is False, reply.text
        fields = reply.json()["data"]["fields"]
        assert fields and all(message for message in fields.values())
    unchanged()


def test_geo_fence_csv_that_is_not_text():
    for text in (PDF.decode("latin-1"), EXE.decode("latin-1"), "\x00\x00\x00", "=HYPERLINK(\"http://x\")"):
        fence, problem = geo_fence_from_csv(text)
        assert problem, fence


# --- pictures past the decode budget (app/kernel/media.py) ----------------------------------------------------

# 81 MP: just under Pillow's own bomb limit (89 MP), so Pillow alone decoded it whole; ~80 KB as a PNG.
BIG_PICTURE = (9000, 9000)
OVER_PIXELS = "Image is 9000 x 9000 pixels (81 MP); the limit is 40 MP."
# 36 MP, within the pixel budget, but RGBA takes 4 bytes a pixel: 138 MB once decoded.
HEAVY_PICTURE = (6000, 6000)
OVER_MEMORY = "Image is 6000 x 6000 pixels in RGBA, 138 MB once decoded; the limit is 128 MB."


def _decodes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The sizes of the pictures Pillow decodes from now on."""
    from PIL import ImageFile

    decoded: list[tuple[int, int]] = []
    load = ImageFile.ImageFile.load

    def counted(self: Any) -> Any:
        decoded.append(self.size)
        return load(self)
    monkeypatch.setattr(ImageFile.ImageFile, "load", counted)
    return decoded


@pytest.mark.parametrize("path", ["/api/uploads/creative", "/api/withOutRole/upload"])
def test_a_creative_picture_past_the_decode_budget_is_refused_before_it_is_decoded(client, targets, unchanged,
                                                                                    monkeypatch, path):
    decoded = _decodes(monkeypatch)
    big = solid_png(*BIG_PICTURE)
    heavy = solid_png(*HEAVY_PICTURE, mode="RGBA")
    assert len(big) < 200_000 and len(heavy) < 200_000  # far inside the 2 MB a creative image may be
    assert refused(post_creative(client, targets, "big.png", big, "image", path), "file") == OVER_PIXELS
    assert refused(post_creative(client, targets, "heavy.png", heavy, "icon", path), "file") == OVER_MEMORY
    assert decoded == []
    unchanged()
    # A picture within the budget (a 2x full-screen interstitial) is decoded and kept as before.
    good = post_creative(client, targets, "tall.png", solid_png(2160, 3840, mode="RGB"), "image", path)
    assert good.status_code in (200, 201), good.text
    assert (good.json()["data"]["width"], good.json()["data"]["height"]) == (2160, 3840)


def test_a_brand_picture_past_the_decode_budget_is_refused(client, targets, unchanged, monkeypatch):
    decoded = _decodes(monkeypatch)
    for kind in ("logo", "favicon"):
        assert refused(post_branding(client, targets, "logo.png", solid_png(*BIG_PICTURE), kind), kind) == OVER_PIXELS
        heavy = solid_png(*HEAVY_PICTURE, mode="RGBA")
        assert refused(post_branding(client, targets, "logo.png", heavy, kind), kind) == OVER_MEMORY
    assert decoded == []
    unchanged()
    good = post_branding(client, targets, "logo.png", solid_png(400, 100, mode="RGBA"))
    assert good.status_code == 200, good.text


def test_a_jpeg_is_checked_whole_at_an_eighth_of_its_size(monkeypatch):
    """A JPEG's check decodes every byte at 1/8 scale (1/64 of the memory); a cut one is still refused."""
    from app.kernel import media

    decoded = _decodes(monkeypatch)
    jpeg = image_bytes(1600, 800, "JPEG")
    assert (media.read_image(jpeg, "file").width, media.read_image(jpeg, "file").height) == (1600, 800)
    assert decoded == [(200, 100), (200, 100)]
    with pytest.raises(Invalid) as cut:
        media.read_image(jpeg[: len(jpeg) // 2], "file")
    assert cut.value.fields == {"file": media.NOT_AN_IMAGE}


# --- oversized files ----------------------------------------------------------------------------------------

@pytest.fixture
def small_limits(monkeypatch) -> int:  # type: ignore[no-untyped-def]
    """Every upload route's limit lowered to 200 KB, so a test can go past it without sending megabytes."""
    limit = 200 * 1024
    settings = get_settings()
    for name in ("max_creative_video_bytes", "max_creative_image_bytes", "max_image_upload_bytes"):
        monkeypatch.setattr(settings, name, limit)
    monkeypatch.setattr(app_entries, "MAX_UPLOAD_BYTES", limit)
    monkeypatch.setattr(audience_devices, "MAX_FILE_BYTES", limit)
    return limit


def test_every_upload_route_refuses_a_file_past_its_limit(client, targets, unchanged, small_limits):
    big_csv = b"com.example.app\n" * (small_limits // 16 + 5000)
    big_ids = (IDFA + "\n").encode() * (small_limits // 37 + 2000)
    big_image = image_bytes(64, 64) + b"\x00" * (small_limits + 100_000)
    replies = [post_creative(client, targets, "big.png", big_image),
               post_creative(client, targets, "big.mp4", big_image, "video", "/api/withOutRole/upload"),
               post_branding(client, targets, "big.png", big_image),
               post_devices(client, targets, "ids.txt", big_ids),
               *(post_csv(client, targets, route, "big.csv", big_csv) for route in CSV_ROUTES)]
    for reply in replies:
        assert "larger than" in refused(reply, "file", 413)
    unchanged()


def test_the_default_limit_covers_json_calls_too(client, targets):
    from app.kernel.uploads import DEFAULT_BODY_BYTES

    reply = client.post("/api/inventory-lists", headers={**targets["me"], "Content-Type": "application/json"},
                        content=b" " * (DEFAULT_BODY_BYTES + 1))
    assert "larger than" in refused(reply, "body", 413)


class _Upload:
    """An endless chunked request body (no Content-Length), counting the chunks the server asked for."""

    def __init__(self, chunk: bytes) -> None:
        self.chunk, self.read = chunk, 0

    async def receive(self) -> dict[str, Any]:
        self.read += 1
        return {"type": "http.request", "body": self.chunk, "more_body": True}


def _asgi_post(app: Any, path: str, headers: dict[str, str], body: _Upload) -> tuple[int, dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    boundary = "hostileboundary"
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
             "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]
             + [(b"host", b"testserver"), (b"transfer-encoding", b"chunked"),
                (b"content-type", f"multipart/form-data; boundary={boundary}".encode())]}
    first = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.csv\"\r\n"
             "Content-Type: text/csv\r\n\r\n").encode()
    chunks = iter([first])

    async def receive() -> dict[str, Any]:
        head = next(chunks, None)
        return {"type": "http.request", "body": head, "more_body": True} if head else await body.receive()

    run_async(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    data = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(data)


def test_a_chunked_upload_is_refused_while_it_streams(client, targets, unchanged, small_limits):
    """No Content-Length to refuse up front: the body is cut off once past the limit, the rest never read."""
    from app.main import create_app

    app = create_app()
    chunk = b"com.example.app\n" * 4096  # 64 KB
    for path, headers in ((f"/api/audiences/{targets['audience']}/devices", targets["me"]),
                          ("/api/uploads/inventory-list", targets["me"]), ("/api/uploads/creative", targets["me"])):
        body = _Upload(chunk)
        status, reply = _asgi_post(app, path, headers, body)
        assert status == 413 and reply["data"]["fields"]["file"], reply
        assert body.read * len(chunk) <= small_limits + 2 * len(chunk)  # stopped at the limit, not at the end
    unchanged()


def test_body_limit_reads_nothing_past_a_declared_length():
    async def never_called(_scope: Any, _receive: Any, _send: Any) -> None:
        raise AssertionError("the app ran")

    read: list[int] = []
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        read.append(1)
        return {"type": "http.request", "body": b"x", "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/uploads/inventory-list",
             "headers": [(b"content-length", str(10 * 1024**3).encode())]}
    run_async(BodyLimit(never_called, limits=upload_limits)(scope, receive, send))
    assert sent[0]["status"] == 413 and not read


# --- hostile file names -------------------------------------------------------------------------------------

def _inert(name: str) -> None:
    assert "/" not in name and "\\" not in name and name not in ("", ".", "..")
    assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name), repr(name)
    assert len(name) <= DISPLAY_NAME_CHARS


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_file_names_never_escape_and_are_shown_inert(client, targets, name):
    data = get_settings().data_dir
    before = _files()
    image = post_creative(client, targets, name, noisy_image())
    assert image.status_code == 201, image.text
    _inert(image.json()["data"]["filename"])
    devices = post_devices(client, targets, name, f"{IDFA}\n".encode())
    assert devices.status_code == 200, devices.text
    _inert(devices.json()["data"]["upload"]["file"])
    listed = post_csv(client, targets, CSV_ROUTES[0], name, b"com.example.app\n")
    assert listed.status_code == 200, listed.text
    _inert(listed.json()["data"]["filename"])
    logo = post_branding(client, targets, name, image_bytes(32, 32))
    assert logo.status_code == 200, logo.text
    new = _files() - before
    assert len(new) == 2, new  # the creative file and the logo, and nothing else
    for relative in new:
        path = (data / relative).resolve()
        assert path.parent in ((data / "uploads" / "creatives").resolve(), (data / "uploads" / "branding").resolve())
        assert Path(relative).name.isascii() and "passwd" not in relative and "script" not in relative
    history = client.get(f"/api/audiences/{targets['audience']}/change-log", headers=targets["me"])
    assert history.status_code == 200 and "\x00" not in history.text and "\\u0000" not in history.text


def test_shown_file_name():
    assert shown_file_name("../../etc/passwd") == "passwd"
    assert shown_file_name("..\\..\\x.png") == "x.png"
    assert shown_file_name("invoice\u202egnp.exe") == "invoice gnp.exe"
    assert shown_file_name("a\x00b.png") == "a b.png"
    assert shown_file_name("..") == shown_file_name("") == shown_file_name(None) == "upload"
    long = shown_file_name("x" * 500 + ".png")
    assert len(long) == DISPLAY_NAME_CHARS and long.endswith("….png")
