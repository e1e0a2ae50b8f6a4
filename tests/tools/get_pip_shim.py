# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Offline stand-in for the get-pip.py script ansible-test downloads.

ansible-test bootstraps pip into every empty virtual environment it creates by
running ``~/.ansible/test/cache/get_pip_<version>.py``, which it downloads from
ci-files.testing.ansible.com when that file is missing, e.g.::

    python get_pip_24_2.py --disable-pip-version-check pip==24.2 --no-setuptools --no-wheel

``tests/tools/ansible-test.sh`` copies this script to those cache paths so that
no download is needed. It installs pip into the running interpreter with what
is already on the machine, then moves to the requested version:

1. ``python -m ensurepip`` (the pip wheel bundled with CPython) or, when the
   interpreter has no bundled wheel (Debian without python3-venv), a pip wheel
   from ``/usr/share/python-wheels``; setuptools that ensurepip adds on
   Python < 3.12 is removed again when ``--no-setuptools`` is given;
2. ``python -m pip install <requested packages>`` from the package index the
   machine's pip configuration names (pip.conf, PIP_* variables are honoured).
   If that fails, the pip from step 1 is kept with a warning, unless
   ``GET_PIP_SHIM_STRICT=1`` is set.
"""

from __future__ import annotations

import glob
import os
import re
import subprocess
import sys

# get-pip.py options that ``pip install`` does not understand.
GET_PIP_ONLY_OPTIONS = frozenset(('--no-setuptools', '--no-wheel', '--no-pip'))

WHEEL_DIRS = (
    os.path.join(sys.base_prefix, 'share', 'python-wheels'),
    '/usr/share/python-wheels',
)


def log(message):
    """Write a progress message to stderr."""
    sys.stderr.write('get_pip_shim: %s\n' % message)
    sys.stderr.flush()


def run(cmd):
    """Run a command, return its exit status."""
    log('running: %s' % ' '.join(cmd))
    return subprocess.run(cmd, check=False).returncode


def can_import(module):
    """Return True if the running interpreter can import module (checked in a fresh process)."""
    cmd = [sys.executable, '-c', 'import %s' % module]
    return subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def has_pip():
    """Return True if the running interpreter can import pip."""
    return can_import('pip')


def version_key(path):
    """Sort key for a wheel file name: its version as a tuple of integers."""
    match = re.match(r'pip-([0-9.]+)', os.path.basename(path))
    return tuple(int(part) for part in match.group(1).split('.') if part) if match else ()


def find_pip_wheel():
    """Return the newest pip wheel shipped by the OS, or None."""
    wheels = []
    for directory in WHEEL_DIRS:
        wheels.extend(glob.glob(os.path.join(directory, 'pip-*.whl')))
    return max(wheels, key=version_key) if wheels else None


def bootstrap_pip():
    """Install pip into the running interpreter without network access; return True on success."""
    if has_pip():
        return True

    if run([sys.executable, '-m', 'ensurepip', '--default-pip']) == 0 and has_pip():
        return True

    wheel = find_pip_wheel()
    if wheel:
        # A pip wheel is importable as is: run pip from inside the wheel to install that same wheel.
        cmd = [sys.executable, os.path.join(wheel, 'pip'), 'install', '--no-index', '--disable-pip-version-check', wheel]
        if run(cmd) == 0 and has_pip():
            return True

    log('no way to install pip offline: neither ensurepip nor a pip wheel in %s works' % ', '.join(WHEEL_DIRS))
    return False


def main(argv):
    """Bootstrap pip, then install what get-pip.py was asked to install."""
    install_args = [arg for arg in argv if arg not in GET_PIP_ONLY_OPTIONS]
    had_setuptools = can_import('setuptools')

    if not bootstrap_pip():
        return 1

    # ensurepip of Python < 3.12 also installs setuptools; get-pip.py --no-setuptools would not.
    if '--no-setuptools' in argv and not had_setuptools and can_import('setuptools'):
        run([sys.executable, '-m', 'pip', 'uninstall', '--yes', '--quiet', '--disable-pip-version-check', 'setuptools'])

    if not [arg for arg in install_args if not arg.startswith('-')]:
        return 0

    if run([sys.executable, '-m', 'pip', 'install'] + install_args) == 0:
        return 0

    if os.environ.get('GET_PIP_SHIM_STRICT') == '1':
        log('installing %s failed (GET_PIP_SHIM_STRICT=1)' % ' '.join(install_args))
        return 1

    log('WARNING: installing %s failed; keeping the bundled pip' % ' '.join(install_args))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
