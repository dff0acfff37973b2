"""The package's build backend (PEP 517, PEP 660), standard library only.

The SDK has no dependencies, and neither has building it: ``pip install`` of a checkout or of the sdist a
Reprise server hands out works offline, without fetching setuptools. It reads the ``[project]`` table of
pyproject.toml (the plain strings and string lists this project uses) and packs ``src/reprise`` into a
``py3-none-any`` wheel.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import calendar
import zipfile

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The same fixed time for every entry, so a wheel built twice from the same files is the same bytes.
_EPOCH = (1985, 10, 26, 8, 15, 0)
_SKIP = re.compile(r"(^|/)(__pycache__|\.DS_Store)(/|$)|\.py[co]$")


def _project() -> dict:
    """The [project] table: ``key = "text"``, ``key = ["a", "b"]`` (over several lines) and ``license = { text = "…" }``."""
    with open(os.path.join(_ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    project: dict = {}
    for m in re.finditer(r'^([A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|\[.*?\]|\{.*?\})', table.group(1) if table else "", re.M | re.S):
        key, value = m.group(1), m.group(2)
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', value)
        if value.startswith("["):
            project[key] = strings
        elif value.startswith("{"):
            project[key] = dict(re.findall(r'([A-Za-z-]+)\s*=\s*"((?:[^"\\]|\\.)*)"', value))
        else:
            project[key] = strings[0]
    return project


def _dist_name(project: dict) -> str:
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project: dict) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
    ]
    license = project.get("license")
    if isinstance(license, dict) and "text" in license:
        lines.append(f"License: {license['text']}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    readme = project.get("readme")
    body = ""
    if isinstance(readme, str):
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(_ROOT, readme), encoding="utf-8") as f:
            body = f.read()
    return "\n".join(lines) + "\n\n" + body


def _package_files():
    """(path in the wheel, absolute path) of every file of src/reprise."""
    src = os.path.join(_ROOT, "src")
    for folder, dirs, names in os.walk(os.path.join(src, "reprise")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(folder, name), src).replace(os.sep, "/")
            if not _SKIP.search(rel):
                yield rel, os.path.join(folder, name)


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_wheel(directory: str, entries: list) -> str:
    project = _project()
    dist = _dist_name(project)
    info = f"{dist}-{project['version']}.dist-info"
    entries = list(entries) + [
        (f"{info}/METADATA", _metadata(project).encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: reprise_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/top_level.txt", b"reprise\n"),
    ]
    record = "".join(f"{p},{_record_hash(d)},{len(d)}\n" for p, d in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    name = f"{dist}-{project['version']}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in entries:
            item = zipfile.ZipInfo(path, _EPOCH)
            item.external_attr = 0o100644 << 16
            item.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(item, data)
    return name


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 517: the wheel of src/reprise."""
    return _write_wheel(wheel_directory, [(rel, _read(path)) for rel, path in _package_files()])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: a wheel whose .pth file puts this checkout's src/ on sys.path."""
    project = _project()
    pth = f"__editable__.{_dist_name(project)}-{project['version']}.pth"
    return _write_wheel(wheel_directory, [(pth, (os.path.join(_ROOT, "src") + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    """PEP 517: pyproject.toml, the README, this backend and src/reprise, under ``<name>-<version>/``."""
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    files = [("pyproject.toml", _read(os.path.join(_ROOT, "pyproject.toml")))]
    readme = project.get("readme")
    if isinstance(readme, str):
        files.append((readme, _read(os.path.join(_ROOT, readme))))
    files.append(("build_backend/reprise_build.py", _read(os.path.abspath(__file__))))
    files += [(f"src/{rel}", _read(path)) for rel, path in _package_files()]
    files.append(("PKG-INFO", _metadata(project).encode()))
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for path, data in files:
            item = tarfile.TarInfo(f"{base}/{path}")
            item.size = len(data)
            item.mode = 0o644
            item.mtime = calendar.timegm(_EPOCH + (0, 0, 0))
            sdist.addfile(item, io.BytesIO(data))
    return name
