"""deploy/ kept true: what an operator copies names real settings, real commands and real paths, and the proxy
sample lets through what the console takes. What needs a machine of its own (Docker, systemd as init) is not run
here; `systemd-analyze verify` and `nginx -t` are, where installed."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from pydantic import AliasChoices, ValidationError

from app.cli import main as cli_main
from app.kernel.config import REPO_ROOT, Settings
from app.kernel.uploads import DEFAULT_BODY_BYTES, MB
from app.main import create_api, upload_limits
from tests import nginx_proxy

DEPLOY = REPO_ROOT / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
UNIT = DEPLOY / "dsp-console.service"
ENV_EXAMPLE = DEPLOY / "env.example"
# Where the README's install puts the release and its settings: the unit names them; tests point them here.
RELEASE_DIR = "/opt/dsp-console"
ENV_FILE = "/etc/dsp-console/env"
SECRET = "k" * 64  # stands for the random secret an operator sets


def setting_names() -> set[str]:
    """Every environment variable the settings read (prefix DSP_, or a field's own names)."""
    names = set()
    for field_name, field in Settings.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, str):
            names.add(alias.upper())
        elif isinstance(alias, AliasChoices):
            names.update(str(choice).upper() for choice in alias.choices)
        else:
            names.add(f"DSP_{field_name.upper()}")
    return names


def cli_commands() -> set[str]:
    """The subcommands `python -m app` has, as its --help lists them ({serve,migrate,...})."""
    help_text = io.StringIO()
    with contextlib.redirect_stdout(help_text), pytest.raises(SystemExit):
        cli_main(["--help"])
    found = re.search(r"\{([a-z,-]+)\}", help_text.getvalue())
    assert found, help_text.getvalue()
    return set(found.group(1).split(","))


def app_commands_in(command: str) -> list[str]:
    """The `python -m app <command>` subcommands a shell command line runs."""
    return re.findall(r"python -m app ([a-z-]+)", command)


def _compose_environment() -> dict[str, str]:
    """The app service's environment, its ${VAR:?...} secrets given values as an operator would."""
    environment = yaml.safe_load(COMPOSE.read_text())["services"]["app"]["environment"]
    return {name: re.sub(r"\$\{[^}]+\}", SECRET, str(value)) for name, value in environment.items()}


def _env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a settings file, the secret key set as README step 4 sets it."""
    pairs = dict(line.split("=", 1) for line in path.read_text().splitlines() if line.strip() and not line.startswith("#"))
    return {**{name: value.strip('"') for name, value in pairs.items()}, "DSP_SECRET_KEY": SECRET}


def _dockerfile_environment() -> set[str]:
    """The variables the Dockerfile sets for the console (PYTHON* and PIP_* are Python's and pip's own)."""
    names = set()
    for name, args in _instructions(DOCKERFILE):
        if name == "ENV":
            names |= {found for found in re.findall(r"\b([A-Z][A-Z0-9_]*)=", args)
                      if not found.startswith(("PYTHON", "PIP_"))}
    return names


def test_every_variable_the_kit_sets_is_a_setting() -> None:
    named = set(_compose_environment()) | set(_env_file(ENV_EXAMPLE)) | _dockerfile_environment()
    assert named - setting_names() == set(), "not settings of app/kernel/config.py"
    assert {"DSP_SECRET_KEY", "DATABASE_URL", "DSP_FORWARDED_ALLOW_IPS"} <= named


@pytest.mark.parametrize("source", ["compose", "env.example"])
def test_the_kits_settings_are_accepted(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Production values, as the compose file and the settings file give them, pass the settings' own checks."""
    for name, value in (_compose_environment() if source == "compose" else _env_file(ENV_EXAMPLE)).items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert settings.environment == "production"
    assert settings.sqlalchemy_url.startswith("postgresql")


def _instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", dockerfile.read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def _instruction(dockerfile: Path, name: str, *, last: bool = False) -> str:
    found = [args for instruction, args in _instructions(dockerfile) if instruction == name]
    assert found, f"{dockerfile.name} has no {name}"
    return found[-1] if last else found[0]


def test_the_dockerfile_copies_what_exists_runs_real_commands_and_not_as_root() -> None:
    instructions = _instructions(DOCKERFILE)
    ignored = {line.strip().rstrip("/") for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert instructions[0] == ("FROM", "python:3.11-slim")
    for name, args in instructions:
        if name == "COPY":
            *sources, _target = shlex.split(args)
            for source in sources:
                assert (REPO_ROOT / source).exists(), f"COPY {source}: not in the repository"
                assert source.rstrip("/") not in ignored, f"COPY {source}: left out of the build context"
    user = _instruction(DOCKERFILE, "USER", last=True)
    assert user not in ("root", "0")
    health = _instruction(DOCKERFILE, "HEALTHCHECK")
    assert "/api/health" in health
    assert "/health" in {getattr(route, "path", "") for route in create_api().routes}
    commands = app_commands_in(_instruction(DOCKERFILE, "CMD", last=True))
    assert commands == ["migrate", "serve"]
    assert set(commands) <= cli_commands()


def test_compose_runs_the_app_with_postgresql_and_clickhouse_on_volumes() -> None:
    compose = yaml.safe_load(COMPOSE.read_text())
    services = compose["services"]
    assert set(services) == {"app", "postgres", "clickhouse"}
    assert (COMPOSE.parent / services["app"]["build"]["context"] / services["app"]["build"]["dockerfile"]).resolve() \
        == DOCKERFILE
    assert services["clickhouse"]["image"].startswith("clickhouse/clickhouse-server:")
    environment = services["app"]["environment"]
    assert environment["DATABASE_URL"].startswith("postgresql://")
    assert environment["DSP_STATISTICS_URL"].startswith("clickhouse://")
    for service in services.values():
        for volume in service.get("volumes", []):
            assert volume.split(":")[0] in compose["volumes"], f"{volume}: not a named volume"
    for name, config in compose.get("configs", {}).items():
        assert (COMPOSE.parent / config["file"]).is_file(), f"config {name}: no {config['file']}"


def _unit() -> str:
    return UNIT.read_text()


def test_the_unit_runs_the_console_as_its_own_user_with_its_settings_file() -> None:
    unit = _unit()
    assert re.search(r"^User=dsp$", unit, re.M)
    assert re.search(rf"^EnvironmentFile={ENV_FILE}$", unit, re.M)
    assert re.search(r"^Restart=on-failure$", unit, re.M)
    starts = re.findall(r"^ExecStart(?:Pre)?=(.*)$", unit, re.M)
    assert [app_commands_in(line) for line in starts] == [["migrate"], ["serve"]]
    assert all(line.startswith(f"{RELEASE_DIR}/.venv/bin/python ") for line in starts)
    assert "ProtectSystem=strict" in unit and "StateDirectory=dsp-console" in unit


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_finds_nothing_wrong_in_the_unit(tmp_path: Path) -> None:
    env = tmp_path / "env"
    env.write_text(ENV_EXAMPLE.read_text())
    unit = tmp_path / "dsp-console.service"
    unit.write_text(_unit().replace(RELEASE_DIR, str(REPO_ROOT)).replace(ENV_FILE, str(env)))
    verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert (verified.returncode, verified.stderr.strip()) == (0, "")


def _directive(config: str, name: str) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;]+);", config, re.M)


def test_the_nginx_sample_passes_what_the_console_needs() -> None:
    sample = nginx_proxy.SAMPLE.read_text()
    headers = dict(value.split(None, 1) for value in _directive(sample, "proxy_set_header"))
    # Host as the browser sent it, port included: the websocket's and sign-in's Origin checks compare with it.
    assert headers["Host"] == "$http_host"
    assert headers["X-Forwarded-Proto"] == "$scheme"
    assert headers["X-Forwarded-For"] == "$proxy_add_x_forwarded_for"
    assert headers["Upgrade"] == "$http_upgrade"
    # The pages' websocket path (ReactPy's prefix) has a location of its own, with an hour's read timeout.
    from reactpy import config as reactpy_config

    assert f"location {reactpy_config.REACTPY_PATH_PREFIX.current} " in sample
    # Static files straight from the release's static/ folder.
    assert _directive(sample, "alias") == [f"{RELEASE_DIR}/static/"]
    assert (REPO_ROOT / "static").is_dir()


def _megabytes(size: str) -> int:
    assert size.endswith("m"), size
    return int(size[:-1]) * MB


def test_the_nginx_sample_takes_every_body_the_console_takes() -> None:
    """Each route's body limit fits nginx's: the server's own, or that of a location with the route's own pattern."""
    sample = nginx_proxy.SAMPLE.read_text()
    server_limit = _megabytes(_directive(sample, "client_max_body_size")[0])
    # location ~ PATTERN { ... client_max_body_size N; ... }
    locations = {pattern: _megabytes(size) for pattern, size in
                 re.findall(r"location ~ (\S+) \{[^}]*?client_max_body_size (\w+);", sample)}
    assert server_limit >= DEFAULT_BODY_BYTES
    for limit in upload_limits():
        allowed = locations.get(limit.pattern.pattern, server_limit)
        assert allowed >= limit.body_bytes, f"nginx refuses {limit.pattern.pattern} bodies the console takes"


@pytest.mark.skipif(not nginx_proxy.installed(), reason=nginx_proxy.MISSING)
def test_nginx_accepts_the_sample(tmp_path: Path) -> None:
    checked = nginx_proxy.check(nginx_proxy.configure(tmp_path, upstream_port=nginx_proxy.free_port()))
    assert checked.returncode == 0, checked.stderr


def test_the_readme_install_steps_name_files_that_exist() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    section = readme.split("## Install on your own server", 1)[1].split("\n## ", 1)[0]
    for path in set(re.findall(r"\bdeploy/[\w./-]+\w", section)):
        assert (REPO_ROOT / path).exists(), path
    for command in set(re.findall(r"python -m app ([a-z-]+)", section)):
        assert command in cli_commands(), command


def test_the_settings_file_reads_the_same_in_a_shell(tmp_path: Path) -> None:
    """README step 5 loads /etc/dsp-console/env in sh (systemd reads it as EnvironmentFile): quoted values with
    spaces arrive whole, and every line is a plain assignment."""
    shown = subprocess.run(["sh", "-c", f"set -a; . {shlex.quote(str(ENV_EXAMPLE))}; env"], capture_output=True,
                           text=True, timeout=30, env={"PATH": "/usr/bin:/bin"}, check=True)
    values = dict(line.split("=", 1) for line in shown.stdout.splitlines() if "=" in line)
    assert values["DSP_MAIL_FROM"] == "DSP Console <no-reply@console.example.com>"
    assert values["DSP_ENVIRONMENT"] == "production"


def test_trusted_proxies_are_loopback_unless_named_and_a_wrong_entry_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DSP_FORWARDED_ALLOW_IPS", raising=False)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    assert Settings().forwarded_allow_ips == "127.0.0.1,::1"
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.0/8")  # uvicorn's own name is read too
    assert Settings().forwarded_allow_ips == "10.0.0.0/8"
    monkeypatch.setenv("DSP_FORWARDED_ALLOW_IPS", "192.0.2.10, 2001:db8::/32")
    assert Settings().forwarded_allow_ips == "192.0.2.10, 2001:db8::/32"
    monkeypatch.setenv("DSP_FORWARDED_ALLOW_IPS", "127.0.0.1,proxy.internal")
    with pytest.raises(ValidationError, match="DSP_FORWARDED_ALLOW_IPS: 'proxy.internal' is not an IP address"):
        Settings()


def test_who_may_read_metrics_is_checked_at_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DSP_METRICS_ALLOW", "10.0.0.0/8, 192.0.2.7")
    assert Settings().metrics_allow == "10.0.0.0/8, 192.0.2.7"
    monkeypatch.setenv("DSP_METRICS_ALLOW", "")  # nobody
    assert Settings().metrics_allow == ""
    monkeypatch.setenv("DSP_METRICS_ALLOW", "prometheus.internal")
    with pytest.raises(ValidationError, match="DSP_METRICS_ALLOW: 'prometheus.internal' is not an IP address"):
        Settings()
    monkeypatch.setenv("DSP_METRICS_ALLOW", "*")  # a wildcard is the proxies' list's, not this one's
    with pytest.raises(ValidationError, match="DSP_METRICS_ALLOW: '\\*' is not an IP address"):
        Settings()
