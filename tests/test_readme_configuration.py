"""README's configuration table says only what exists, and says all of it: every DSP_ variable it names is a
setting the console reads (app/kernel/config.py), and every setting is in it (issue 25: the README promised what
was not there)."""

from __future__ import annotations

import re

from app.kernel.config import REPO_ROOT, Settings


def _table() -> str:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def _variable(name: str) -> str:
    alias = Settings.model_fields[name].validation_alias
    return alias if isinstance(alias, str) else f"DSP_{name.upper()}"


def test_every_dsp_variable_in_the_table_is_a_setting() -> None:
    named = {found for line in _table().splitlines() for found in re.findall(r"`(DSP_[A-Z0-9_]+)`", line.split("|")[1])}
    assert named, "no variables found: has the table moved?"
    assert named <= {_variable(name) for name in Settings.model_fields}, "documented but not read by the console"


def test_every_setting_is_in_the_table() -> None:
    table = _table()
    missing = [_variable(name) for name in Settings.model_fields if f"`{_variable(name)}`" not in table]
    assert missing == [], "settings the README does not document"
