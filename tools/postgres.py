"""A real PostgreSQL server for the tests and the benchmarks, from Debian's binaries: a new
cluster in a temporary folder, listening on a Unix socket only, run as the ``postgres`` user
when run as root (``initdb`` refuses root) and as the current user otherwise."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (the newest installed version), if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _version(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


class Postgres:
    """A running cluster: ``url(name)`` is the libpq URL of one of its databases."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="arbiter-pg-"))
        self.data = self.folder / "data"
        self.socket = self.folder / "socket"
        self.socket.mkdir()
        self.as_user: list[str] = []
        self.user = pwd.getpwuid(os.getuid()).pw_name
        if os.getuid() == 0:  # initdb refuses root: the cluster is the postgres user's
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
            os.chown(self.socket, account.pw_uid, account.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
            self.user = "postgres"
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8")  # fmt: skip
        options = f"-k {self.socket} -c listen_addresses='' -c fsync=on -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "server.log"), "-w", "start")  # fmt: skip
        self.databases = 0

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / program), *args], check=True,
                       capture_output=True, timeout=120)  # fmt: skip

    def url(self, name: str) -> str:
        return f"postgresql://{self.user}@/{name}?host={self.socket}"

    def new_database(self) -> str:
        """A new, empty database; its URL."""
        self.databases += 1
        name = f"test{self.databases}"
        self._run("createdb", "-h", str(self.socket), "-U", self.user, name)
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
