"""Failures of what the server stands on, told apart from bugs: the database gone away, the data disk full or
not writable, the files' bucket unreachable or refusing the server's keys (DSP_FILES_URL=s3://…). The one place that maps them to an answer a user can act on; the API's envelope
(app/web/envelope.py), the pages' toasts (components/ui/hooks.py), the console's loading screen
(components/root.py) and report runs (app/reports/jobs.py) all ask `infrastructure_error`.

These are not bugs, so they are not "unexpected errors": a 503 (try again soon) or a 507 (disk full) saying
that nothing was saved, which is true because every write runs in one transaction that the failure rolled back.
"""

from __future__ import annotations

import errno
import os
import sqlite3

import duckdb
from botocore.exceptions import BotoCoreError, ClientError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.kernel.errors import ServiceError

DATABASE_DOWN = "The database is not answering; nothing was saved. Try again in a moment."
DATABASE_BUSY = "The database is busy; nothing was saved. Try again in a moment."
DISK_FULL = "The server's disk is full; nothing was saved. Try again once space has been freed."
FILES_DOWN = "The file store is not answering; nothing was saved. Try again in a moment."
FILES_REFUSED = ("The file store refused the server (its bucket, keys or permissions); nothing was saved. "
                 "Tell your administrator.")
# What an S3-compatible bucket (app/kernel/storage.py) answers when the setting, not the request, is wrong ("403":
# a HEAD request's refusal, which has no body to name it).
_BUCKET_REFUSALS = {"403", "NoSuchBucket", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "AllAccessDisabled",
                    "InvalidBucketName", "PermanentRedirect", "AuthorizationHeaderMalformed"}
CANNOT_WRITE = ("The server cannot write its files (a data folder is missing, read-only or not permitted); "
                "nothing was saved. Tell your administrator.")

_DISK_FULL_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
_CANNOT_WRITE_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EISDIR}
# SQLite answers a full disk (ENOSPC) with SQLITE_FULL, and a write the file-size or quota limit refused
# (EFBIG, EDQUOT) with SQLITE_IOERR_WRITE.
_SQLITE_DISK_FULL = {"SQLITE_FULL", "SQLITE_IOERR_WRITE"}
_SQLITE_BUSY = {"SQLITE_BUSY", "SQLITE_LOCKED"}
# DuckDB (the statistics store) reports a failed file write only as text, with the system's wording of the
# errno and no errno attribute ('Failed to commit: Could not write file "...": File too large'), so its errors
# are read for the same errnos' texts.
_DISK_FULL_TEXTS = tuple(os.strerror(n) for n in sorted(_DISK_FULL_ERRNOS))
_CANNOT_WRITE_TEXTS = tuple(os.strerror(n) for n in sorted(_CANNOT_WRITE_ERRNOS))


class Unavailable(ServiceError):
    """Down or busy for now: the API answers 503 with Retry-After (a client that honours it comes back in time)."""

    code = 503
    retry_after_s = 2


class InsufficientStorage(ServiceError):
    code = 507


def _causes(error: BaseException) -> list[BaseException]:
    """The error, what it wraps (SQLAlchemy's .orig) and what caused it, outermost first."""
    seen: list[BaseException] = []
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop(0)
        if current is None or any(current is s for s in seen):
            continue
        seen.append(current)
        pending += [getattr(current, "orig", None), current.__cause__, current.__context__]
    return seen


def infrastructure_error(error: BaseException) -> ServiceError | None:
    """The clear answer for a failure of the database or the data disk, or None for anything else (a bug)."""
    for cause in _causes(error):
        if isinstance(cause, ServiceError):
            return None  # the service's own answer stands
        if isinstance(cause, PoolTimeout):  # every pooled connection in use for longer than DSP_DB_POOL_TIMEOUT_S
            return Unavailable(DATABASE_BUSY)
        if isinstance(cause, sqlite3.Error):
            name = getattr(cause, "sqlite_errorname", "")
            if name in _SQLITE_DISK_FULL:
                return InsufficientStorage(DISK_FULL)
            if name in _SQLITE_BUSY:
                return Unavailable(DATABASE_BUSY)
            if name in ("SQLITE_READONLY", "SQLITE_CANTOPEN") or name.startswith("SQLITE_READONLY_"):
                return Unavailable(CANNOT_WRITE)
            return None
        if isinstance(cause, duckdb.Error):
            text = str(cause)
            if any(wording in text for wording in _DISK_FULL_TEXTS):
                return InsufficientStorage(DISK_FULL)
            if any(wording in text for wording in _CANNOT_WRITE_TEXTS):
                return Unavailable(CANNOT_WRITE)
            return None
        if isinstance(cause, (OperationalError, InterfaceError)) and not isinstance(cause.orig, sqlite3.Error):
            return Unavailable(DATABASE_DOWN)  # PostgreSQL refused the connection, or dropped it
        if isinstance(cause, DBAPIError) and cause.connection_invalidated:
            return Unavailable(DATABASE_DOWN)
        if isinstance(cause, BotoCoreError):  # the bucket unreachable, timed out, or no credentials found
            return Unavailable(FILES_DOWN)
        if isinstance(cause, ClientError):
            code = str(cause.response.get("Error", {}).get("Code", ""))
            if code in _BUCKET_REFUSALS:
                return Unavailable(FILES_REFUSED)
            return Unavailable(FILES_DOWN) if code in ("SlowDown", "ServiceUnavailable", "InternalError") else None
        if isinstance(cause, OSError) and not isinstance(cause, ConnectionError):
            if cause.errno in _DISK_FULL_ERRNOS:
                return InsufficientStorage(DISK_FULL)
            if cause.errno in _CANNOT_WRITE_ERRNOS:
                return Unavailable(CANNOT_WRITE)
    return None
