# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The class a module runs: the one its ``main()`` calls (``Instance.main()``), wherever it is declared (in the module
file, or in module_utils when two modules share it: ``instance`` and ``instances``)."""

from __future__ import annotations


def module_class(module):
    """The class whose ``main`` the module's ``main()`` calls; a module file must have exactly one."""
    classes = [vars(module)[name] for name in module.main.__code__.co_names
               if isinstance(vars(module).get(name), type) and getattr(vars(module)[name], "argument_spec", None)]
    assert len(classes) == 1, "%s: main() must run exactly one module class, not %s" % (module.__name__, classes)
    return classes[0]
