# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # How every module that changes something works ("docs say what, fragments say how", issue 44): a module's
    # description says what it manages; these notes say how, once for all of them.
    # ansible-doc takes a fragment with options or attributes only: this one adds none.
    DOCUMENTATION = r"""
options: {}
notes:
  - Only the options you give are managed; an option you leave out (or set to null) keeps whatever the service has.
    A list you give is made exactly that list only where the option says so (with a C(purge_) option, or a set
    module's C(state)). When everything given already matches, the module sends no write and reports C(changed=false).
  - Every documented limit is checked before the first request and every name the task gives (a network, an
    instance, a pool...) is resolved before the first write. A name is matched exactly over every page of its listing
    (a service filter that matches substrings is not trusted); two records with the name fail the module listing
    their IDs. Bad input fails naming the option and the rule, and nothing is sent.
  - An option documented as create-only (or used at create only) is sent only when the resource is created. Where the
    resource shows it, a value different from the service's fails naming the option and both values, before any write,
    unless the option says how it is changed (for example an C(allow_) option that permits a rebuild); where the
    resource does not show it, it is not compared, and the option says so.
  - Where the service locks a resource while a task runs (its C(task_id) is set), the module waits for the lock to
    clear, up to C(wait_timeout), before it sends a change or a delete. A C(409 Conflict) answer means nothing was
    applied; the module waits for the lock, plans again from what it reads and sends what is still needed (at most 3
    times, never more than O(api_retries)). A lock left by a task that ended in C(ERROR) fails at once, naming it.
  - A write is never sent twice. After an ambiguous failure (a 5xx answer, a timeout or a dropped connection) the
    task, or the resource, is read until the outcome is known (within C(wait_timeout) where the module has one). When
    it shows the change was applied the module goes on and warns once; when the outcome stays unknown it fails with
    C(changed=true), saying the change could not be confirmed. A clear rejection (such as a 400 or 403 answer) applied nothing and
    fails with the service's message.
  - C(changed) is true once the service has accepted a write, even when a later step fails; the failure message then
    lists the writes that were accepted. Check mode sends no write and reports what would change; diff mode returns
    the resource before and after (in check mode, after as it would be).
"""
