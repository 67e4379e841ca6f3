"""The distribution has a name of its own (PyPI's ``inspector`` is another project); the command and the
import package stay ``inspector``, and pipx / uv tool installs from a clone find the command."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import inspector

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the test extra installs tomli on 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
NAME = "toolcall-inspector"


def test_the_distribution_is_toolcall_inspector_with_the_inspector_command():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == NAME
    assert project["scripts"] == {"inspector": "inspector.cli:main"}  # what pipx and uv tool expose
    extras = project["optional-dependencies"]
    assert all(NAME in dep for dep in extras["test"] if "inspector" in dep)  # self-references use it


def test_the_installed_metadata_carries_the_name_the_version_and_the_command():
    dist = metadata.distribution(NAME)
    assert dist.version == inspector.__version__
    [command] = [ep for ep in dist.entry_points if ep.group == "console_scripts"]
    assert (command.name, command.value) == ("inspector", "inspector.cli:main")


def test_the_readme_installs_the_clone_and_warns_about_the_other_inspector():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "pipx install ." in readme and "uv tool install ." in readme
    assert f"**`{NAME}`**" in readme and "do not `pip install inspector`" in readme
