"""One validated settings object, read from the environment (prefix DSP_ or the plain names below)."""

from __future__ import annotations

import ipaddress
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]
_DEV_SECRET = "dev-only-secret-change-me-in-production-0000"
# The environments a process may run as. `test` is the suite's own (tests/conftest.py): it adds test-only routes.
ENVIRONMENTS = ("development", "production", "test")
Environment = Literal["development", "production", "test"]
# A production secret signs sessions' API tokens and export links and derives the DSP credentials key: shorter
# than this, or the development value everyone can read in this file, and anyone could forge them.
MIN_SECRET_KEY_LENGTH = 32
MAKE_A_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(48))"'
# The statistics stores DSP_STATISTICS_URL can name, by URL scheme (app/warehouse/__init__.py opens them).
STATISTICS_SCHEMES = ("duckdb", "chdb", "clickhouse")


def statistics_url_refusal(url: str) -> str:
    return (f"DSP_STATISTICS_URL {url!r} names no statistics store: use duckdb:///path (the default), "
            "chdb:///path or clickhouse://user:password@host:8123/database")


def secret_key_problem(secret: str) -> str:
    """What makes `secret` unfit for production, or "" when it will do."""
    if not secret.strip():
        return "is empty"
    if secret == _DEV_SECRET:
        return "is the development default"
    if len(secret.strip()) < MIN_SECRET_KEY_LENGTH:
        return f"is {len(secret.strip())} characters long"
    return ""


def refusal_lines(error: ValidationError) -> list[str]:
    """One line per setting pydantic refused, each naming the environment variable: what `python -m app` prints
    instead of a traceback. Refusals written here (ValueError) name it themselves; pydantic's own get it added."""
    lines = []
    for problem in error.errors(include_url=False):
        message = str(problem["msg"]).removeprefix("Value error, ")
        if problem["type"] != "value_error" and problem["loc"]:
            name = str(problem["loc"][0])  # a field's name, or its alias (PORT, DATABASE_URL) as it was read
            alias = Settings.model_fields[name].validation_alias if name in Settings.model_fields else name
            message = f"{alias if isinstance(alias, str) else 'DSP_' + name.upper()}: {message}"
        lines.append(message)
    return lines


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DSP_", extra="ignore")

    environment: Environment = "development"
    data_dir: Path = REPO_ROOT / "data"
    database_url: str = Field(default="", validation_alias="DATABASE_URL")
    secret_key: str = _DEV_SECRET
    host: str = "127.0.0.1"
    port: int = Field(default=8000, validation_alias="PORT")
    # The proxies whose X-Forwarded-For / X-Forwarded-Proto the server believes (uvicorn's forwarded_allow_ips):
    # addresses or networks, comma-separated, "*" for any. A request from anywhere else keeps its own address, so
    # a client cannot pick the address the sign-in throttle counts by sending the header itself. uvicorn's own
    # FORWARDED_ALLOW_IPS is read too; DSP_FORWARDED_ALLOW_IPS wins.
    forwarded_allow_ips: str = Field(default="127.0.0.1,::1",
                                     validation_alias=AliasChoices("DSP_FORWARDED_ALLOW_IPS", "FORWARDED_ALLOW_IPS"))
    # Database connections each server process keeps open, and how many more it may open at a peak (SQLite and
    # PostgreSQL). Several processes on one PostgreSQL database: keep their sum under its max_connections (100 by
    # default). A call that finds every connection in use waits at most db_pool_timeout_s, then answers 503 with
    # Retry-After.
    db_pool_size: int = Field(default=10, ge=1)
    db_max_overflow: int = Field(default=20, ge=0)
    db_pool_timeout_s: float = Field(default=5.0, gt=0)
    # SQLite writes one transaction at a time; the server queues its writers (app/kernel/sqlite_writes.py). A writer
    # finding db_write_queue others already waiting is refused at once (503, Retry-After); one that waits longer
    # than db_write_wait_s is refused then.
    db_write_queue: int = Field(default=100, ge=1)
    db_write_wait_s: float = Field(default=5.0, gt=0)
    # Server processes `python -m app serve` starts (app/cli.py serving_processes): empty means one per core on
    # PostgreSQL with a statistics store processes share, one otherwise.
    workers: int | None = Field(default=None, ge=1)

    # Logs (app/kernel/logging_setup.py): json | text; empty means JSON in production, text elsewhere. The level
    # applies to the console's own loggers ("dsp.*"); libraries log warnings and worse.
    log_format: Literal["", "json", "text"] = ""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # /api/ready answers 503 naming "disk" when the data directory's disk has less free space than this.
    ready_min_free_disk_mb: int = Field(default=500, ge=0)
    # Who may read /metrics (app/web/metrics.py): addresses or networks, comma-separated; others get 404. The
    # address is the client's as uvicorn sees it (behind a trusted proxy, the forwarded one).
    metrics_allow: str = "127.0.0.1/32,::1/128"

    # Sessions (spec section 9): 2 h lifetime, refreshed by the browser's session agent.
    session_lifetime_ms: int = 7_200_000
    # An open page may trust its last session check this long against changes made by other processes (a second
    # server, a command-line tool); this process's own sign-outs, disables and role changes end its pages at once.
    # 0, the default: every event is checked, as the architecture's rule says; more trades that for ~1 ms a click.
    session_recheck_ms: int = Field(default=0, ge=0)
    # Edit pages show the inactivity prompt after this long without input (spec: 300,000 ms).
    inactivity_limit_ms: int = 300_000
    # Login throttling: failures counted over a sliding window.
    login_window_s: int = 900
    login_max_failures_per_account: int = 5
    login_max_failures_per_address: int = 20
    # The account-wide ceiling (app/access/throttle.py): past this many failures from every address together in the
    # window, each further attempt waits login_ceiling_delay_s after the last failure, doubling, at most the window.
    login_account_ceiling: int = Field(default=20, ge=0)
    login_ceiling_delay_s: int = Field(default=30, ge=1)
    # Calls that e-mail a code (register, resend, forgot-password): every request counts, over its own window.
    mail_window_s: int = 900
    mail_max_per_account: int = 5
    mail_max_per_address: int = 20
    otp_lifetime_s: int = 900
    # API writes (POST, PUT, PATCH, DELETE) a minute, per API key or sign-in and per client address; 0 is no
    # limit (app/access/write_limits.py). Over either: 429 with Retry-After, nothing done.
    api_writes_per_minute_per_key: int = Field(default=600, ge=0)
    api_writes_per_minute_per_address: int = Field(default=1200, ge=0)

    # Background jobs (app/jobs): a killed process's job is run again by another worker once its lease
    # (SQLite) or heartbeat (PostgreSQL) is this old; live workers renew theirs every third of it.
    jobs_lease_seconds: float = Field(default=30.0, gt=0)
    # The queue this process defers its jobs to and takes them from. Processes that share a database but not a data
    # directory or statistics store (a staging server on a copy, the test suite's browser server) keep theirs apart.
    # At most 20 characters: on PostgreSQL it is part of each task's queue name (app/jobs/pg_queue.py).
    jobs_queue: str = Field(default="default", pattern=r"^[a-z0-9_-]{1,20}$")
    # Scheduled reports go out at this time of day (HH:MM) in each report's own time zone: after the day has closed.
    report_schedule_at: str = Field(default="06:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    # The alert checks (app/alerts/jobs.py) run this often, once across every process; 0 turns the clock off (the
    # test suite, whose tests run the checks themselves).
    alert_check_minutes: float = Field(default=5.0, ge=0, le=1440)
    # Statistics batches stored without their ledger charge (a process killed in between) are found and charged this
    # often, and at each start, once across every process (app/statistics/charge_reconciler.py); 0 turns it off (the
    # test suite, whose tests store batches without charging them).
    charge_reconcile_minutes: float = Field(default=5.0, ge=0, le=1440)

    # Outgoing e-mail: SMTP when smtp_host is set, else the outbox table plus the log.
    smtp_host: str = ""
    smtp_port: int = 25
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False
    mail_from: str = "DSP Console <no-reply@dsp.example>"

    # Delivery statistics (app/analytics): the DuckDB file; empty means analytics.duckdb in the data directory.
    analytics_file: Path | None = None
    # Where statistics live (app/warehouse/__init__.py): duckdb:///path (empty: the DuckDB file above),
    # chdb:///path (ClickHouse's engine in this process) or clickhouse://user:pass@host:8123/db (a server).
    statistics_url: str = ""

    # Where files live (app/kernel/storage.py): empty for the data directory, file:///path for another folder,
    # s3://bucket/prefix for an S3-compatible bucket that a fleet of servers shares. The S3 settings below go
    # with the last; empty keys leave boto3 to find credentials itself (AWS_* variables, an instance role).
    files_url: str = ""
    files_s3_endpoint_url: str = ""  # MinIO, Ceph, R2, ...: the service's URL; empty for AWS
    files_s3_region: str = ""
    files_s3_access_key_id: str = ""
    files_s3_secret_access_key: str = ""
    # auto: path-style (https://host/bucket/key) when an endpoint URL is set, virtual-host style on AWS.
    files_s3_addressing_style: Literal["auto", "path", "virtual"] = "auto"

    # Conversion postbacks are forwarded to client URLs; private and local addresses are refused unless allowed
    # (a tracker inside the operator's own network; the tests' fake tracker on 127.0.0.1).
    postback_allow_private_targets: bool = False

    # DSP connections (app/dsps/service.py). Credentials are encrypted with a key derived from secret_key unless
    # dsp_credentials_key (a Fernet key) is given: see app/dsps/credentials.py for why and how to rotate.
    dsp_credentials_key: str = Field(default="", validation_alias="DSP_CREDENTIALS_KEY")
    # Each call to a DSP (connection test, push) gives up after this long: a slow platform must not hold a worker.
    dsp_request_timeout_s: float = Field(default=10.0, validation_alias="DSP_REQUEST_TIMEOUT_S")

    # The key the spec's own client encrypts its POST, PUT and PATCH bodies with (CryptoJS passphrase AES, spec
    # section 7): set, such bodies may come as {"encryptedData"} and are answered as {"encryptedResponse"}.
    # Compatibility with that client, not security (its key ships in every browser): app/web/client_envelope.py.
    client_envelope_key: str = ""

    # Upload limits for logos and favicons.
    max_image_upload_bytes: int = 1_048_576
    # Creative files (app/kernel/media.py): what ad exchanges commonly accept for display and video.
    max_creative_image_bytes: int = 2_097_152  # 2 MB
    max_creative_video_bytes: int = 52_428_800  # 50 MB

    # Card top-ups (Stripe Checkout). Off unless both keys are set; api_base is for tests (a local fake Stripe).
    stripe_secret_key: str = ""
    stripe_webhook_secret: str = ""
    stripe_api_base: str = "https://api.stripe.com"

    @field_validator("forwarded_allow_ips", "metrics_allow")
    @classmethod
    def _refuse_unreadable_networks(cls, value: str, info: ValidationInfo) -> str:
        """Both lists are read at start-up, so a typo stops the server naming the setting instead of a proxy's
        clients all sharing one address or /metrics failing at its first scrape. An empty DSP_METRICS_ALLOW lets
        nobody read /metrics."""
        if not value.strip() and info.field_name == "metrics_allow":
            return value
        for entry in (part.strip() for part in value.split(",")):
            if entry == "*" and info.field_name == "forwarded_allow_ips":
                continue
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                star = "; * trusts every address" if info.field_name == "forwarded_allow_ips" else ""
                raise ValueError(f"DSP_{(info.field_name or '').upper()}: {entry!r} is not an IP address or network "
                                 f"(write them comma-separated, e.g. 127.0.0.1,10.0.0.0/8{star})") from None
        return value

    @model_validator(mode="after")
    def _refuse_unknown_statistics_store(self) -> Settings:
        scheme = self.statistics_url.partition("://")[0]
        if self.statistics_url and ("://" not in self.statistics_url or scheme not in STATISTICS_SCHEMES):
            raise ValueError(statistics_url_refusal(self.statistics_url))
        return self

    @model_validator(mode="after")
    def _refuse_unknown_files_url(self) -> Settings:
        url = urlsplit(self.files_url)
        if self.files_url and not ((url.scheme == "s3" and url.netloc) or (url.scheme == "file" and url.path)):
            raise ValueError(f"DSP_FILES_URL {self.files_url!r} names no file store: leave it empty for the data "
                             "directory, or use s3://bucket/prefix or file:///path")
        return self

    @field_validator("environment", mode="before")
    @classmethod
    def _refuse_unknown_environment(cls, value: object) -> object:
        # Before pydantic's own check, so the refusal names the setting: DSP_ENVIRONMENT=prod ran as development.
        if value not in ENVIRONMENTS:
            raise ValueError(f"DSP_ENVIRONMENT={value!r} is not an environment: use development or production "
                             "(test is the test suite's own)")
        return value

    @model_validator(mode="after")
    def _refuse_a_weak_secret_in_production(self) -> Settings:
        problem = secret_key_problem(self.secret_key)
        if problem and self.environment == "production":
            raise ValueError(f"DSP_SECRET_KEY {problem}: production needs a secret of at least "
                             f"{MIN_SECRET_KEY_LENGTH} characters that only this server knows. Make one with: "
                             f"{MAKE_A_SECRET}")
        if not self.secret_key.strip():
            self.secret_key = _DEV_SECRET  # development: an empty DSP_SECRET_KEY= signs with the default, not a 500
        return self

    @property
    def sqlalchemy_url(self) -> str:
        if self.database_url:
            url = self.database_url
            if url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
            return url
        return f"sqlite:///{self.data_dir / 'dsp.sqlite3'}"

    @property
    def analytics_path(self) -> Path:
        """The statistics store's file (DuckDB); the browser tests give their server its own."""
        return self.analytics_file or self.data_dir / "analytics.duckdb"

    @property
    def stripe_enabled(self) -> bool:
        return bool(self.stripe_secret_key and self.stripe_webhook_secret)

    @property
    def uploads_dir(self) -> Path:
        return self.data_dir / "uploads"

    @property
    def is_sqlite(self) -> bool:
        return self.sqlalchemy_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.uploads_dir.mkdir(parents=True, exist_ok=True)
    return settings


def new_token() -> str:
    return secrets.token_urlsafe(32)
