"""A test-only ClickHouse HTTP interface in front of one chDB session, so several processes can share one
ClickHouse store in tests (issue 23) and the store's clickhouse:// path (HTTPExecutor, clickhouse-connect) runs
against ClickHouse's own engine. No ClickHouse server can be installed on this machine; chDB is that engine,
in process, one process per directory: this process is that one process.

    python -m tests.clickhouse_http --path DIR [--port N] [--user U --password P] [--exit-with-stdin]

It binds 127.0.0.1:N (0: a free port), opens chDB on DIR, then prints one line
`clickhouse-http listening on 127.0.0.1:PORT` on stdout: a fixture waits for that line (start() below).

What it speaks (what clickhouse-connect 1.12.0 sends, read from its driver/_backend/httpcommon.py, http_sync.py
and orchestration.py):
- GET/POST on `/`, the SQL in the `query` parameter, the body, or both (then the body follows the parameter's
  SQL after a newline, or is an INSERT's data); multipart/url-encoded forms (clickhouse-connect's form
  encoding of long parameters); `GET /ping`.
- `database`, `default_format`, `query_id`, `session_id`, `param_NAME` (server-side parameters, handed to chDB
  as they are: both read them in ClickHouse's text format); every other parameter that is not transport
  (wait_end_of_query, compress, ...) is a setting, SET for that request and restored after it.
- INSERT ... FORMAT X with data (Native, RowBinary, CSV, ...; the body decompressed by its Content-Encoding: lz4,
  zstd, gzip, deflate): the data goes to a temporary file and chDB runs the same INSERT FROM INFILE, so ClickHouse's
  own reader parses it, as a server's would.
- The output is chDB's bytes in the query's FORMAT, else default_format, else TabSeparated; headers
  X-ClickHouse-Format, X-ClickHouse-Timezone, X-ClickHouse-Query-Id, X-ClickHouse-Summary; an error answers
  ClickHouse's way: a 4xx/5xx status, X-ClickHouse-Exception-Code and the `Code: N. DB::Exception: ...` text.
- Basic auth (or X-ClickHouse-User/-Key, or user/password parameters) against the one user it is started with.
- Two requests at once in one session_id: the second fails with SESSION_IS_LOCKED (373), as on a server.
- Answers compressed in the first encoding of Accept-Encoding it knows (lz4, zstd, gzip, deflate) when
  enable_http_compression is on (ClickHouse 26's default; clickhouse-connect asks for lz4 by default).

What it does not: ClickHouse's own `compress`/`decompress` block format, sessions' state (SET, temporary tables:
all requests share one chDB session whose settings are reset after each request), progress headers, streaming
(answers are whole), client_protocol_version (chDB writes Native without the block info that asks for, so
clickhouse-connect's probe falls back to protocol 0, as behind a proxy that drops the parameter; DateTime columns
then come without their zone, which clickhouse-connect reads in X-ClickHouse-Timezone's zone, as from a server
asked without the protocol version), external data, GET's read-only rule, TLS, roles, quotas. Requests run one at a time (one lock
on the chDB session): it is a fixture, not a server.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Request parameters a ClickHouse HTTP server reads as transport, not as settings.
TRANSPORT = {"query", "database", "default_format", "query_id", "session_id", "session_timeout", "session_check",
             "user", "password", "quota_key", "compress", "decompress", "buffer_size", "wait_end_of_query",
             "client_protocol_version", "role", "stacktrace", "close_session"}
# ClickHouse's HTTP status for a few exception codes (everything else: 500).
STATUS = {62: 400, 27: 400, 36: 400, 60: 404, 81: 404, 46: 404, 516: 401, 194: 401}
AUTHENTICATION_FAILED = 516
SESSION_IS_LOCKED = 373
UNKNOWN_EXCEPTION = 1002
_INSERT_WITH_DATA = re.compile(r"\s*INSERT\s.*?\bFORMAT\s+(\w+)[ \t]*(?:\r?\n|$)", re.IGNORECASE | re.DOTALL)
_TRAILING_FORMAT = re.compile(r"\bFORMAT\s+(\w+)\s*;?\s*$", re.IGNORECASE)
_CODE = re.compile(r"Code: (\d+)\.")
_CONTENT_TYPES = {"Native": "application/octet-stream", "RowBinary": "application/octet-stream",
                  "JSON": "application/json; charset=UTF-8", "JSONCompact": "application/json; charset=UTF-8"}


class ClickHouseError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Request:
    sql: str
    data: bytes | None  # an INSERT's data, beside its SQL
    params: dict[str, str]
    settings: dict[str, str] = field(default_factory=dict)


@dataclass
class Answer:
    body: bytes
    headers: dict[str, str]
    status: int = 200


class Engine:
    """One chDB session, used by one request at a time."""

    def __init__(self, path: Path) -> None:
        from chdb import session

        path.mkdir(parents=True, exist_ok=True)
        opener: Any = session.Session  # chdb has no type hints
        self._session: Any = opener(str(path))
        self._lock = threading.Lock()
        self._database = "default"
        self._overridden: dict[str, str] = {}  # setting -> the value this request set
        self._defaults: dict[str, str] = {}  # setting -> its value before the first request changed it
        self.version, self.timezone = self._one("SELECT version(), timezone()").split("\t")
        self.compresses = self._one("SELECT value FROM system.settings WHERE name = 'enable_http_compression'")
        self._spool = Path(tempfile.mkdtemp(prefix="clickhouse-http-"))

    def close(self) -> None:
        with self._lock:
            self._session.close()
        shutil.rmtree(self._spool, ignore_errors=True)

    def _one(self, sql: str) -> str:
        return bytes(self._session.query(sql, "TabSeparatedRaw").bytes()).decode().rstrip("\n")

    def run(self, request: Request) -> Answer:
        started = time.perf_counter_ns()
        with self._lock:
            try:
                self._prepare(request)
                fmt = request.params.get("default_format") or "TabSeparated"
                sql = request.sql
                spool = None
                if request.data is not None:
                    spool = self._spool / f"{uuid.uuid4().hex}.data"
                    spool.write_bytes(request.data)
                    sql = f"{sql.rstrip()} "  # INSERT INTO t (...) FORMAT X -> INSERT INTO t (...) FROM INFILE 'f' FORMAT X
                    match = _TRAILING_FORMAT.search(sql)
                    assert match is not None
                    sql = f"{sql[:match.start()]}FROM INFILE '{spool}' {sql[match.start():]}"
                params = {name.removeprefix("param_"): value for name, value in request.params.items()
                          if name.startswith("param_")}
                try:
                    result = (self._session.query(sql, fmt, params=params) if params
                              else self._session.query(sql, fmt))
                finally:
                    if spool is not None:
                        spool.unlink(missing_ok=True)
            except Exception as error:  # chDB raises its errors as ChdbError/RuntimeError with ClickHouse's text
                text = str(error)
                match = _CODE.search(text)
                raise ClickHouseError(int(match.group(1)) if match else UNKNOWN_EXCEPTION, text) from error
        output = bytes(result.bytes() or b"")
        trailing = _TRAILING_FORMAT.search(request.sql) if request.data is None else None
        shown = trailing.group(1) if trailing else fmt
        summary = {"read_rows": str(result.rows_read()), "read_bytes": str(result.bytes_read()),
                   "written_rows": str(_count(result, "rows_written")), "written_bytes": str(_count(result, "bytes_written")),
                   "total_rows_to_read": str(result.rows_read()), "result_rows": "0", "result_bytes": "0",
                   "elapsed_ns": str(time.perf_counter_ns() - started)}
        return Answer(output, {"X-ClickHouse-Format": shown, "X-ClickHouse-Timezone": self.timezone,
                               "X-ClickHouse-Summary": json.dumps(summary, separators=(",", ":")),
                               "Content-Type": _CONTENT_TYPES.get(shown, "text/plain; charset=UTF-8")})

    def _prepare(self, request: Request) -> None:
        """The request's database and settings on the shared session; the last request's settings undone."""
        database = request.params.get("database") or "default"
        if database != self._database:
            self._session.query(f"USE `{database.replace('`', '')}`")
            self._database = database
        for name in [n for n in self._overridden if n not in request.settings]:
            self._set(name, self._defaults[name])
            del self._overridden[name]
        for name, value in request.settings.items():
            if self._overridden.get(name) != value:
                if name not in self._defaults:
                    found = self._session.query("SELECT value FROM system.settings WHERE name = {n:String}",
                                                "TabSeparatedRaw", params={"n": name})
                    self._defaults[name] = bytes(found.bytes()).decode().rstrip("\n")
                self._set(name, value)
                self._overridden[name] = value

    def _set(self, name: str, value: str) -> None:
        if not re.fullmatch(r"\w+", name):
            raise ClickHouseError(115, f"Code: 115. DB::Exception: Unknown setting '{name}'. (UNKNOWN_SETTING)")
        self._session.query(f"SET {name} = '{value.replace(chr(92), chr(92) * 2).replace(chr(39), chr(92) + chr(39))}'")

    def error_answer(self, error: ClickHouseError, query_id: str) -> Answer:
        return Answer(f"{error} (version {self.version})\n".encode(),
                      {"X-ClickHouse-Exception-Code": str(error.code), "X-ClickHouse-Query-Id": query_id,
                       "Content-Type": "text/plain; charset=UTF-8"}, STATUS.get(error.code, 500))


def decompressed(body: bytes, encoding: str | None) -> bytes:
    """A request body by its Content-Encoding, every frame of it (clickhouse-connect compresses an insert's
    blocks as they are built; its own response decompressor stops at the compressed length)."""
    if not encoding or encoding == "identity" or not body:
        return body
    if encoding == "lz4":
        import lz4.frame

        parts = []
        while body:
            frame = lz4.frame.LZ4FrameDecompressor()
            parts.append(frame.decompress(body))
            body = frame.unused_data
        return b"".join(parts)
    if encoding == "zstd":
        from backports import zstd

        return bytes(zstd.decompress(body))
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    if encoding == "br":
        import brotli

        return bytes(brotli.decompress(body))
    raise ClickHouseError(48, f"Code: 48. DB::Exception: Unknown HTTP Content-Encoding: {encoding}. (NOT_IMPLEMENTED)")


def compressed(body: bytes, accepted: str) -> tuple[bytes, str | None]:
    """An answer compressed as a server does when asked (enable_http_compression=1): in the first encoding of
    Accept-Encoding it knows."""
    for encoding in (e.split(";")[0].strip() for e in accepted.split(",")):
        if encoding == "lz4":
            import lz4.frame

            return bytes(lz4.frame.compress(body)), encoding
        if encoding == "zstd":
            from backports import zstd

            return bytes(zstd.compress(body)), encoding
        if encoding == "gzip":
            return gzip.compress(body, compresslevel=1), encoding
        if encoding == "deflate":
            return zlib.compress(body, 1), encoding
    return body, None


def _count(result: Any, name: str) -> int:
    counter = getattr(result, name, None)
    return int(counter()) if callable(counter) else 0


def build_app(engine: Engine, user: str, password: str) -> Any:
    """The Starlette app: parses a request ClickHouse's way, runs it on the engine in a worker thread."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request as HTTPRequest
    from starlette.responses import PlainTextResponse, Response
    from starlette.routing import Route

    sessions: set[str] = set()
    sessions_lock = threading.Lock()

    def authorized(request: HTTPRequest, params: dict[str, str]) -> bool:
        given_user, given_password = params.get("user"), params.get("password")
        header = request.headers.get("authorization", "")
        if header.lower().startswith("basic "):
            given_user, _, given_password = base64.b64decode(header[6:]).decode().partition(":")
        elif "x-clickhouse-user" in request.headers:
            given_user = request.headers["x-clickhouse-user"]
            given_password = request.headers.get("x-clickhouse-key", "")
        return (given_user or "default") == user and (given_password or "") == password

    async def ping(request: HTTPRequest) -> Response:
        return PlainTextResponse("Ok.\n")

    async def query(request: HTTPRequest) -> Response:
        params = dict(request.query_params)
        body = await request.body() if request.method == "POST" else b""
        content_type = request.headers.get("content-type", "")
        if content_type.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
            async with request.form() as form:
                params.update({name: value for name, value in form.items() if isinstance(value, str)})
            body = b""
        query_id = params.get("query_id") or str(uuid.uuid4())
        if not authorized(request, params):
            return _response(engine.error_answer(ClickHouseError(
                AUTHENTICATION_FAILED, f"Code: {AUTHENTICATION_FAILED}. DB::Exception: {params.get('user') or 'default'}: "
                "Authentication failed: password is incorrect, or there is no user with such name. "
                "(AUTHENTICATION_FAILED)"), query_id))
        if params.get("decompress") in ("1", "true"):
            return _response(engine.error_answer(ClickHouseError(
                48, "Code: 48. DB::Exception: this test front does not read ClickHouse's compressed blocks "
                "(decompress=1). (NOT_IMPLEMENTED)"), query_id))
        try:
            body = decompressed(body, request.headers.get("content-encoding"))
        except ClickHouseError as error:
            return _response(engine.error_answer(error, query_id))
        sql, data = params.get("query", ""), None
        if sql and body:
            if _INSERT_WITH_DATA.fullmatch(sql + "\n"):
                data = body
            else:
                sql = f"{sql}\n{body.decode()}"
        elif body:
            text = body.decode("utf-8", errors="surrogateescape")
            insert = _INSERT_WITH_DATA.match(text)
            if insert and insert.end() < len(text):
                sql, data = text[:insert.end()].rstrip(), text[insert.end():].encode("utf-8", errors="surrogateescape")
            else:
                sql = text
        if not sql.strip():
            return PlainTextResponse("Ok.\n")
        settings = {name: value for name, value in params.items()
                    if name not in TRANSPORT and not name.startswith("param_")}
        session = params.get("session_id")
        if session:
            with sessions_lock:
                locked = session in sessions
                sessions.add(session)
            if locked:
                return _response(engine.error_answer(ClickHouseError(
                    SESSION_IS_LOCKED, f"Code: {SESSION_IS_LOCKED}. DB::Exception: Session {session} is locked by "
                    "a concurrent client. (SESSION_IS_LOCKED)"), query_id))
        try:
            answer = await run_in_threadpool(engine.run, Request(sql, data, params, settings))
        except ClickHouseError as error:
            answer = engine.error_answer(error, query_id)
        finally:
            if session:
                with sessions_lock:
                    sessions.discard(session)
        answer.headers["X-ClickHouse-Query-Id"] = query_id
        if answer.status == 200 and settings.get("enable_http_compression", engine.compresses) in ("1", "true"):
            answer.body, encoding = compressed(answer.body, request.headers.get("accept-encoding", ""))
            if encoding:
                answer.headers["Content-Encoding"] = encoding
        return _response(answer)

    def _response(answer: Answer) -> Response:
        return Response(answer.body, status_code=answer.status, headers=answer.headers)

    return Starlette(routes=[Route("/ping", ping, methods=["GET", "HEAD"]),
                             Route("/", query, methods=["GET", "POST"])])


@contextmanager
def start(path: Path, *, user: str = "default", password: str = "", time_zone: str | None = None,
          timeout: float = 120) -> Iterator[str]:
    """This front in a process of its own on a free port and chDB directory `path`: yields its clickhouse://URL
    (no database: add /NAME), once it says it listens; stops it after."""
    from urllib.parse import quote

    env = {**os.environ, **({"TZ": time_zone} if time_zone else {})}
    # stderr to a file, not a pipe: a long session's warnings would fill a pipe and stall the front.
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.clickhouse_http", "--path", str(path), "--user", user, "--password",
             password, "--exit-with-stdin"],
            cwd=Path(__file__).resolve().parent.parent, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=errors)
        assert process.stdin is not None and process.stdout is not None
        try:
            with selectors.DefaultSelector() as waiting:  # the announcement, or the process's end (an empty line)
                waiting.register(process.stdout, selectors.EVENT_READ)
                line = process.stdout.readline().decode() if waiting.select(timeout) else ""
            if not line.startswith("clickhouse-http listening on "):
                process.kill()
                process.wait()
                errors.seek(0)
                raise RuntimeError(f"the ClickHouse HTTP front did not start: {line!r} {errors.read().decode()}")
            yield f"clickhouse://{quote(user, safe='')}:{quote(password, safe='')}@{line.split()[-1]}"
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            process.stdin.close()
            process.stdout.close()


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", type=Path, required=True, help="chDB's directory (one process per directory)")
    parser.add_argument("--port", type=int, default=0, help="0: a free port, announced on stdout")
    parser.add_argument("--user", default="default")
    parser.add_argument("--password", default="")
    parser.add_argument("--exit-with-stdin", action="store_true",
                        help="stop when stdin closes (start() holds it open: a test run that dies leaves no front)")
    options = parser.parse_args(argv)

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", options.port))
    listener.listen(128)  # connections made from now on wait in the backlog until uvicorn accepts them
    engine = Engine(options.path)
    server = uvicorn.Server(uvicorn.Config(build_app(engine, options.user, options.password), log_level="warning",
                                           lifespan="off"))
    if options.exit_with_stdin:
        def stop_when_stdin_closes() -> None:
            sys.stdin.buffer.read()
            server.should_exit = True

        threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    print(f"clickhouse-http listening on 127.0.0.1:{listener.getsockname()[1]}", flush=True)
    server.run(sockets=[listener])
    engine.close()


if __name__ == "__main__":
    sys.exit(main())
