#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: storage
short_description: Create, change and delete Gcore storages (S3-compatible or SFTP), idempotently
version_added: 1.0.0
description:
  - Manages the life of a Gcore storage through the v4 API - C(/storage/v4/object_storages) (S3-compatible) and
    C(/storage/v4/sftp_storages) (SFTP) - and still deletes one through the deprecated v1 API when O(type) is left out.
  - O(state) defaults to V(absent) for backward compatibility - a task without O(state) only ever deletes.
  - Creates an S3-compatible or SFTP storage and updates an SFTP storage; B(credentials are returned once), and a delete
    removes the storage and B(all the data in it).
author:
  - gcore.platform developers (@gcore-platform)
options:
  storage_id:
    description:
      - ID of the storage, an integer of at least 1 (the API's storage IDs are 64-bit integers).
      - One of O(storage_id) and O(name) is required. With both, O(storage_id) identifies the storage and O(name) must
        be its name (a storage cannot be renamed), in every O(state) - a storage with another name fails the task, naming
        both, and nothing is sent but the read.
      - With O(type), a storage that exists only under the other type fails the task saying so, in every O(state).
      - A storage cannot be created with a given ID; leave it out to create one by O(name).
    type: int
  name:
    description:
      - Name of the storage, as the user gave it (the v4 C(name), not the C(full_name) with the client ID prefix).
      - Without O(storage_id), the storage of this O(type) whose name is exactly this one, searched for over every page of
        the v4 list; two such storages fail the task, listing their IDs. Needs O(type).
      - Must not be empty or hold control characters.
    type: str
  state:
    description:
      - V(present) creates the storage or brings it to the options given; V(absent) deletes it.
      - The default stays V(absent), as in the first versions of this module, which could only delete. Only that first
        form (O(storage_id), with O(type) or without) may leave O(state) out - a task that gives O(name) or any option of
        O(state=present) without O(state) fails before any request, asking for an explicit O(state), so a forgotten
        O(state) never deletes a storage found by name.
    type: str
    choices: [present, absent]
    default: absent
  type:
    description:
      - The kind of storage, which selects the v4 API used.
      - V(s3_compatible) uses C(/storage/v4/object_storages), V(sftp) uses C(/storage/v4/sftp_storages).
      - Required with O(state=present) and to find a storage by O(name).
      - With O(storage_id), if the storage exists only under the other kind, the task fails naming the right value, in
        every O(state) (nothing is sent but the reads).
      - If not set (O(state=absent) with O(storage_id) only), the deprecated C(/storage/provisioning/v1/storage/{storage_id})
        endpoint is used (for either kind) and a deprecation warning is returned. Leaving O(type) out is deprecated and
        will not be supported from version 2.0.0 of this collection; set it to the storage's type (the C(type) member of
        RV(storage) when read through the deprecated endpoint).
    type: str
    choices: [s3_compatible, sftp]
  location:
    description:
      - The location of the storage, the service's C(location_name) (such as V(s-ed1)); the locations that accept new
        storages are listed by C(GET /storage/v4/locations).
      - Required to create. A storage that exists in another location fails the task and nothing is sent - a storage
        cannot move; delete it and create it in the new location.
      - Only with O(state=present).
    type: str
  wait:
    description:
      - After a create (or an SFTP update that the service answers with V(updating)), wait until the storage's
        C(provisioning_status) is V(active). V(creating) and V(updating) mean wait; any other status fails naming the
        storage ID and the status.
      - With V(false) the module returns at once with the storage as the service answered (usually V(creating)).
    type: bool
    default: true
  wait_timeout:
    description:
      - How many seconds to wait when O(wait=true), at least V(1). A storage not active after this time fails the task
        with its ID and last status; the credentials of a storage just created are still returned in RV(credentials).
      - The poll interval starts at half a second and grows to a few seconds.
    type: int
    default: 600
  password_mode:
    description:
      - SFTP only. How the storage's password is handled. Required to create an SFTP storage.
      - On create - V(auto) has the service generate one (returned once in RV(credentials)), V(set) uses O(sftp_password),
        V(none) creates the storage without a password (SSH keys only).
      - On an existing storage (the record shows only C(has_password)) - V(none) removes its password if it has one
        (a C(PATCH) with C(password_mode=none)); V(auto) gives a storage without a password a generated one
        (C(password_mode=auto)); V(set) gives a storage without a password the given one (a C(PATCH) with
        C(password_mode=set) and C(password)). A storage that has a password keeps it (see O(update_password)).
    type: str
    choices: [auto, set, none]
  sftp_password:
    description:
      - SFTP only. The storage's password, 8 to 63 characters without control characters, sent as the API's C(password)
        member. O(password) is an alias (the API's name for it since 2026; this option's name is the one it had before).
      - Required with, and only accepted with, O(password_mode=set). Used when the storage is created, and on a storage
        that exists when it has no password, or with O(update_password=always); it is never returned. Given for a
        storage that has a password with O(update_password=on_create), it is not used and a warning says so.
      - The option is C(no_log), but for ad hoc commands (C(ansible localhost -m ...)) do not pass it in C(-a) - when a
        task fails, ansible-core prints the ad hoc arguments, and the module's C(no_log) does not reach there. Use a
        playbook and a vaulted variable.
    type: str
    aliases: [password]
  update_password:
    description:
      - SFTP only. V(on_create) (the default) leaves an existing password alone. V(always) sends the password on every
        run, always a change - with O(password_mode=auto) a new generated one (a C(PATCH) with C(password_mode=auto)),
        returned in RV(credentials) - a rotation; with O(password_mode=set) the given one (a C(PATCH) with
        C(password_mode=set) and C(password); a read cannot tell whether the storage already has it).
      - When the answer to that C(PATCH) is lost (a server error or a dropped connection after the service applied it),
        the run reports a change and warns that the new password could not be returned; run it again to get one.
    type: str
    choices: [on_create, always]
    default: on_create
  ssh_key_ids:
    description:
      - SFTP only. IDs of the SSH keys (see M(gcore.platform.storage_ssh_key)) linked to the storage, compared as a set;
        a difference sends the whole list. V([]) unlinks every key. Each ID is at least 1.
    type: list
    elements: int
  server_alias:
    description:
      - SFTP only. A custom domain alias of the storage; V("") removes it.
    type: str
  expires:
    description:
      - SFTP only. When the storage expires, as the service's duration text (such as V(2 years 6 months)); V("") removes
        the expiry.
      - Compared as a duration with what the service shows - V(18 months) and V(1 year 6 months) are the same (a year is
        12 months, a week 7 days, a day 24 hours); a text that is not such a duration is compared as text.
    type: str
  is_http_disabled:
    description:
      - SFTP only. Whether HTTP access is disabled (HTTPS only).
    type: bool
  has_custom_config_file:
    description:
      - SFTP only. Whether the storage uses a custom configuration file.
    type: bool
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.attributes
  - gcore.platform.provisioning
attributes:
  idempotent:
    support: partial
    details:
      - O(update_password=always) (with O(password_mode=auto)) has the service generate a new SFTP password on every
        run, so every run reports a change. Without it the module is idempotent.
notes:
  - "With O(state=present): a storage that does not exist is created (C(POST)) with O(name) and O(location) and, with
    O(wait=true), waited for until its C(provisioning_status) is V(active). An SFTP storage that exists gets one
    C(PATCH /storage/v4/sftp_storages/{id}) holding only the members that differ; an S3-compatible storage has no
    update in the API, so only its O(location) is compared (a different one fails: a storage cannot move)."
  - B(Credentials are returned once.) The service answers the S3 access keys or the generated SFTP password only to the
    request that created (or regenerated) them; the module returns them in RV(credentials) on that run, and nowhere else.
    A module cannot hide what it returns, so set C(no_log=true) on the task, C(register) the result and store the
    credentials at once (see EXAMPLES).
  - With O(state=absent) the module deletes the storage and B(all the data in it). It reads the storage first and
    deletes it only when it exists; a second run reports no change and sends nothing.
  - B(Deletion is permanent.) An S3-compatible storage can be restored by the service for a short time (two weeks)
    after its deletion; an SFTP storage cannot be restored at all. Run with C(--check --diff) first to see which
    storage would go.
  - With O(type) set, the module uses the current v4 API,
    C(GET)/C(DELETE /storage/v4/object_storages/{storage_id}) for V(s3_compatible) or
    C(GET)/C(DELETE /storage/v4/sftp_storages/{storage_id}) for V(sftp).
  - Without O(type) (deletion by O(storage_id) only), it uses C(GET)/C(DELETE /storage/provisioning/v1/storage/{storage_id}),
    an endpoint the service marks as deprecated, and returns a deprecation warning that names the O(type) value
    to use for the storage. Only this way of calling the module is deprecated, not the module itself.
  - A storage counts as absent when the service answers 404, answers 400 with an error saying that
    it does not exist, or reports a C(provisioning_status) of V(deleting) or V(deleted).
    A 404 on the C(DELETE) itself, or a 400 saying the storage does not exist or is already deleted (someone deleted it
    between the read and the delete), is no change, not a failure.
  - The returned record never contains credentials; see RV(storage).
  - The credentials of a create whose answer was lost cannot be read again; a warning says so and how to get new ones
    (an SFTP password with O(password_mode=auto) and O(update_password=always)).
  - The SFTP options are accepted only with O(type=sftp) and O(state=present).
  - Members of a storage record this module does not manage (such as an S3 storage's C(type), V(standard) or V(fast),
    shown by newer API versions) are returned as the service sends them and never compared.
seealso:
  - module: gcore.platform.storage_info
  - module: gcore.platform.storage_bucket
  - module: gcore.platform.storage_ssh_key
"""

EXAMPLES = r"""
- name: Create an S3-compatible storage; the keys are shown only now, so store them at once
  gcore.platform.storage:
    state: present
    type: s3_compatible
    name: media-prod
    location: s-ed1
  register: media
  no_log: true  # the result holds the secret key

- name: Store the keys at once, in a file only the owner can read (or in a vault or secret manager)
  ansible.builtin.copy:
    dest: "{{ credentials_dir | default(playbook_dir) }}/media-prod-keys.json"
    content: "{{ media.credentials | to_json }}"
    mode: "0600"
  no_log: true
  when: media.credentials is not none

- name: Create an SFTP storage reached with an SSH key only
  gcore.platform.storage:
    state: present
    type: sftp
    name: partner-drop
    location: s-darz
    password_mode: none
    ssh_key_ids: [11]
    server_alias: drop.example.com
    expires: 1 year

- name: Give the SFTP storage a password of your own (set when it has none; kept when it has one)
  gcore.platform.storage:
    state: present
    type: sftp
    name: partner-drop
    password_mode: set
    password: "{{ vault_partner_drop_password | default('change-me-please') }}"

- name: Rotate the password of an SFTP storage (a new one on every run)
  gcore.platform.storage:
    state: present
    type: sftp
    name: partner-drop
    password_mode: auto
    update_password: always
  register: rotated
  no_log: true

- name: Delete an S3-compatible storage (v4 API)
  gcore.platform.storage:
    storage_id: 1234
    type: s3_compatible

- name: Delete an SFTP storage by name
  gcore.platform.storage:
    state: absent
    type: sftp
    name: partner-drop

- name: See what would be deleted, without deleting it
  gcore.platform.storage:
    storage_id: 1236
    type: s3_compatible
  check_mode: true
  diff: true
  register: preview

- name: Deprecated - without type the v1 provisioning API is used, and a deprecation warning names the type to set
  gcore.platform.storage:
    storage_id: 1236
"""

RETURN = r"""
storage:
  description:
    - The storage as read last (after a create with O(wait=true), as read once active; after a delete, as read before
      it; in check mode, as read). V(null) when there is none (absent, or not created in check mode).
    - Every credential member is removed, at any depth - C(credentials) (S3 C(access_key)/C(secret_key),
      C(sftp_password), the C(keys) list), C(s3), C(access_keys), C(password), C(secret_key), C(access_key) - so it never
      carries a secret. Flags such as C(has_password) and the C(ssh_key_ids) list of an SFTP storage are kept.
    - Without O(type), the v1 record (C(storage_Storage)); with O(type), the v4 record (C(S3StorageListItemV4) or
      C(SFTPStorageItemV4)). The members below are the common ones; the service's other members are returned as sent.
  returned: success
  type: dict
  contains:
    id:
      description: Storage ID.
      type: int
      sample: 101
    name:
      description:
        - Storage name. The v1 API returns it with the client ID prefix (C(1-media-archive)), v4 as the user gave it.
      type: str
      sample: media-archive
    type:
      description: V(s3_compatible) or V(sftp). Only in the v1 record (without O(type)).
      type: str
      sample: s3_compatible
    address:
      description: Host name of the storage endpoint.
      type: str
      sample: s-ed1.storage.example.com
    location_name:
      description: The location (v4 records; the v1 record calls it C(location)).
      type: str
      sample: s-ed1
    provisioning_status:
      description:
        - V(creating), V(updating), V(active) (v4) / V(ok) (v1); a deleted storage is not returned.
      type: str
      sample: active
    created_at:
      description: Creation time.
      type: str
      sample: "2025-08-05T09:17:41Z"
    has_password:
      description: SFTP (v4) only. Whether the storage has a password.
      type: bool
      sample: false
    ssh_key_ids:
      description: SFTP (v4) only. The linked SSH keys.
      type: list
      elements: int
      sample: [11]
  sample:
    id: 1001
    name: media-prod
    full_name: 1-media-prod
    address: s-ed1.storage.example.com
    location_name: s-ed1
    created_at: "2026-11-23T20:41:02Z"
    provisioning_status: active
credentials:
  description:
    - The secrets the service answered the write with, only on the run that created them (S3 keys, a generated SFTP
      password) or regenerated them (O(update_password=always), or O(password_mode=auto) on a storage without a
      password); also when a later step, such as the wait, failed. V(null) on every other run and in check mode.
    - For an S3-compatible storage C(access_keys), a list of C(access_key)/C(secret_key) pairs; for an SFTP storage
      C(password). A password given with O(sftp_password) is not returned.
    - They cannot be read again. Run the task with C(no_log) and store them at once.
  returned: success, and on a failure after the service accepted the write that created or regenerated them (such as the wait's)
  type: dict
  sample:
    access_keys:
      - access_key: 7BHV0E0VPM9MQ01J6VYC
        secret_key: "(secret)"
diff:
  description:
    - With C(--diff), the storage before and after, with C(state=present) or just C(state=absent).
    - With O(state=present), the managed members (C(name), C(location_name) and, for SFTP, C(server_alias), C(expires),
      C(is_http_disabled), C(has_custom_config_file), C(ssh_key_ids), C(has_password)); never a credential.
    - With O(state=absent), the sanitised record before and C(state=absent) after.
  returned: success
  type: dict
  contains:
    before:
      description:
        - The storage as read (its managed members, or without O(state=present) the sanitised record), with
          C(state=present); only C(state=absent) when there was none.
      type: dict
      sample: {id: 101, name: 1-media-archive, provisioning_status: ok, state: present}
    after:
      description: The storage as it is (or would be) after the run; just C(state=absent) after a delete.
      type: dict
      sample: {state: absent}
"""

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import INT64, Refused, ValidationError, check_length, check_range, require
from ansible_collections.gcore.platform.plugins.module_utils._client import ApiError
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._members import view

V1_PATH = "/storage/provisioning/v1/storage/{id}"
V4_LISTS = {"s3_compatible": "/storage/v4/object_storages", "sftp": "/storage/v4/sftp_storages"}  # by type
V4_PATHS = dict((kind, path + "/{id}") for kind, path in V4_LISTS.items())
GONE = frozenset(("deleting", "deleted"))
# Members that hold credentials, at any depth of a storage record (compared case-insensitively).
CREDENTIAL_MEMBERS = frozenset((
    "credentials", "s3", "keys", "access_keys", "access_key", "secret_key", "sftp_password", "password", "private_key",
    "secret", "token",
))
MISSING_TEXT = re.compile(r"does not exist|not found|no such|already (?:being )?delet", re.IGNORECASE)
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
SFTP_OPTIONS = ("password_mode", "sftp_password", "ssh_key_ids", "server_alias", "expires", "is_http_disabled", "has_custom_config_file")
SFTP_PASSWORD_LENGTH = (8, 63)
# The options of state=present: a task without an explicit state that gives one of them fails (it must never delete).
PRESENT_OPTIONS = ("name", "location", "update_password") + SFTP_OPTIONS
DURATION = re.compile(r"\s*(\d+)\s*(year|month|week|day|hour)s?\s*", re.IGNORECASE)
DURATION_UNITS = {"year": (12, 0), "month": (1, 0), "week": (0, 7 * 24), "day": (0, 24), "hour": (0, 1)}


def without_credentials(value):
    """A copy of ``value`` with every credential member removed, at any depth."""
    if isinstance(value, dict):
        return dict((key, without_credentials(item)) for key, item in value.items()
                    if str(key).lower() not in CREDENTIAL_MEMBERS)
    if isinstance(value, list):
        return [without_credentials(item) for item in value]
    return value


def credentials_of(answer):
    """The one-time secrets a create or PATCH answer carries (S3 ``access_keys``, the SFTP ``password``), or None."""
    answer = answer if isinstance(answer, dict) else {}
    if answer.get("access_keys"):
        return {"access_keys": [dict((key, pair.get(key)) for key in ("access_key", "secret_key")) for pair in answer["access_keys"]]}
    if answer.get("password"):
        return {"password": answer["password"]}
    return None


def says_absent(error):
    """A 404, or a 400 whose error says the storage does not exist or is already deleted (v1 documents only 400)."""
    return error.status == 404 or (error.status == 400 and bool(MISSING_TEXT.search(str(error.detail or ""))))


def duration(text):
    """``expires`` as a comparable value: ``(months, hours)`` for a duration such as ``"2 years 6 months"`` (a year is
    12 months, a week 7 days, a day 24 hours), ``()`` for none (``""``); the text itself when it is not a duration."""
    text = (text or "").strip()
    if not text:
        return ()
    months = hours = 0
    position = 0
    for match in DURATION.finditer(text):
        if match.start() != position:
            return text
        position = match.end()
        unit_months, unit_hours = DURATION_UNITS[match.group(2).lower()]
        months += int(match.group(1)) * unit_months
        hours += int(match.group(1)) * unit_hours
    return (months, hours) if position == len(text) else text


def same_duration(desired, current):
    return duration(desired) == duration(current)


def named(record, name):
    """Whether a storage record is the storage called ``name`` (v1 records prefix the client ID: ``1-media``)."""
    return record.get("name") in (name, "%s-%s" % (record.get("client_id"), name))


def check_text(option, value, empty=False):
    """A text option: no control characters; not empty or only whitespace unless ``empty``."""
    if value is None:
        return
    require(not CONTROL.search(value), option, "must not hold control characters (such as a newline or a tab)")
    require(value.strip() or (empty and value == ""), option, "must not be only whitespace" if value else "must not be empty")


def fixed(option, member, what):
    """A member that identifies a storage and cannot change: a storage that differs fails, naming both values."""
    def want(value, record):
        if record is not None and record.get(member) != value:
            raise ValidationError("%s: storage %s has %s %r, not %r; %s (nothing was sent)"
                                  % (option, record.get("id"), member, record.get(member), value, what))
        return value
    return Member(member, option=option, want=want)


class Storage(GcoreResourceModule):
    argument_spec = dict(
        storage_id=dict(type="int"),
        name=dict(type="str"),
        state=dict(type="str", choices=["present", "absent"], default="absent"),
        type=dict(type="str", choices=list(V4_LISTS)),
        location=dict(type="str"),
        password_mode=dict(type="str", choices=["auto", "set", "none"], no_log=False),
        sftp_password=dict(type="str", no_log=True, aliases=["password"]),
        update_password=dict(type="str", choices=["on_create", "always"], default="on_create", no_log=False),
        ssh_key_ids=dict(type="list", elements="int", no_log=False),
        server_alias=dict(type="str"),
        expires=dict(type="str"),
        is_http_disabled=dict(type="bool"),
        has_custom_config_file=dict(type="bool"),
    )
    waits = True
    module_kwargs = dict(
        required_one_of=[("storage_id", "name")],
        required_if=[("state", "present", ["type"]), ("password_mode", "set", ["sftp_password"])],
    )

    # ---- the resource: by ID or exact name, on the v4 paths of its type (the v1 path: delete by ID only) ----
    noun = "storage"
    result_key = "storage"
    scope = "the account"
    id_option = "storage_id"
    name_option = "name"
    page_size = 100
    delete_returns = "before"  # the result is the record that went
    ready = ("provisioning_status", ("active",), ("creating", "updating"))  # with wait: until active

    def validate(self):
        super().validate()
        params = self.params
        raw = getattr(self.module, "raw_params", None) or {}
        given = [option for option in PRESENT_OPTIONS if raw.get(option) is not None]
        require("state" in raw or not given, "state",
                "not given, and %s given: without state this module only deletes the storage given by storage_id (and "
                "type), so a forgotten state never deletes a storage found by name; set state: present to create or change "
                "it, or state: absent to delete it (nothing was sent)" % ", ".join(given))
        check_range("storage_id", params["storage_id"], low=1, high=INT64[1])
        check_text("name", params["name"])
        check_text("location", params["location"])
        check_text("server_alias", params["server_alias"], empty=True)
        check_text("expires", params["expires"], empty=True)
        require(params["storage_id"] is not None or params["type"], "type",
                "required to find a storage by name (the v4 lists are one per type); or give storage_id")
        present = params["state"] == "present"
        for option in SFTP_OPTIONS:
            if params[option] is not None:
                require(present, option, "only with state=present")
                require(params["type"] == "sftp", option, "only for type=sftp storages")
        require(params["location"] is None or present, "location", "only with state=present")
        if params["sftp_password"] is not None:
            require(params["password_mode"] == "set", "sftp_password", "only with password_mode=set")
            check_length("sftp_password", params["sftp_password"], *SFTP_PASSWORD_LENGTH)
            require(not CONTROL.search(params["sftp_password"]), "sftp_password", "must not hold control characters (the value is not shown)")
        require(params["update_password"] == "on_create" or params["password_mode"] in ("auto", "set"), "update_password",
                "always needs password_mode=auto (a new generated password) or password_mode=set (the given one)")
        for index, key_id in enumerate(params["ssh_key_ids"] or []):
            check_range("ssh_key_ids[%d]" % index, key_id, low=1, high=INT64[1])

    @property
    def paths(self):
        kind = self.params["type"]
        return {"item": V4_PATHS[kind] if kind else V1_PATH, "list": V4_LISTS.get(kind)}

    @property
    def members(self):
        """What a present storage compares: its name and location (neither can change), and the SFTP settings."""
        identity = (fixed("name", "name", "a storage cannot be renamed; leave name out or give the storage's own"),
                    fixed("location", "location_name", "a storage cannot move; delete it and create it in the new location"))
        if self.params["type"] != "sftp":
            return identity
        return identity + (
            Member("server_alias", read=lambda record: record.get("server_alias") or ""),
            Member("expires", read=lambda record: record.get("expires") or "", same=same_duration),
            Member("is_http_disabled"),
            Member("has_custom_config_file"),
            Member("ssh_key_ids", read=lambda record: sorted(record.get("ssh_key_ids") or []),
                   want=lambda value, record: sorted(set(value))),
            Member("has_password", option="password_mode", read=lambda record: bool(record.get("has_password")),
                   want=self.want_password, same=self.same_password),
        )

    @property
    def required_to_create(self):
        return ("location", "password_mode") if self.params["type"] == "sftp" else ("location",)

    @staticmethod
    def want_password(mode, record):
        """Whether the storage should have a password."""
        return mode != "none"

    def same_password(self, desired, current):
        """update_password=always (with password_mode auto or set): the password sent on every run. Once the PATCH
        sending it is built, a record with a password counts as done (a read never shows the password), so a PATCH whose
        answer was lost is found applied, not reported unchanged."""
        always = self.params["update_password"] == "always" and self.params["password_mode"] in ("auto", "set")
        return desired == current and not (always and not self.password_patch_built)

    def create_body(self):
        params = self.params
        body = {"name": params["name"], "location_name": params["location"]}
        if params["type"] == "sftp":
            body["password_mode"] = params["password_mode"]
            if params["sftp_password"] is not None:
                body["password"] = params["sftp_password"]
            for option in ("is_http_disabled", "has_custom_config_file"):
                if params[option] is not None:
                    body[option] = params[option]
            for option in ("server_alias", "expires"):  # "" on create: omitted, no alias / no expiry
                if params[option]:
                    body[option] = params[option]
            if params["ssh_key_ids"] is not None:
                body["ssh_key_ids"] = sorted(set(params["ssh_key_ids"]))
        return body

    password_patch_built = False
    lost_credentials_told = False

    def update_body(self, changes, record):
        body = dict((member, value) for member, value in changes.items() if member != "has_password")
        if "has_password" in changes:
            body["password_mode"] = self.params["password_mode"] if changes["has_password"] else "none"
            if body["password_mode"] == "set":
                body["password"] = self.params["sftp_password"]
            self.password_patch_built = True
        return body

    def gone(self, error):
        return says_absent(error)

    def exists(self, record):
        return record is not None and record.get("provisioning_status") not in GONE

    def shown(self, record):
        if self.params["state"] == "present":
            return view(self.members, record)
        return without_credentials(record)

    def returned(self, record):
        self.tell_lost_credentials(record)
        return without_credentials(record) if record is not None and self.exists(record) else None

    def examine(self, record):
        self.result["credentials"] = None
        params = self.params
        kind = params["type"]
        if params["storage_id"] is not None and params["name"] is not None and record is not None and not named(record, params["name"]):
            raise Refused("storage_id and name disagree: storage %s is named %r, not %r; give the storage's own name, or "
                          "leave name out (nothing was sent)" % (params["storage_id"], record.get("name"), params["name"]))
        if kind and record is None and params["storage_id"] is not None:
            other = self.other_kind()
            if other:
                raise Refused("storage_id: storage %s is an %s storage, not an %s one; set type=%s (nothing was sent)"
                              % (params["storage_id"], other, kind, other))
        if params["sftp_password"] is not None and self.exists(record) and record.get("has_password") \
                and params["update_password"] == "on_create":
            self.module.warn("sftp_password: storage %s has a password, which it keeps (update_password: on_create), so the "
                             "given one was not used; to set it, use update_password: always" % record.get("id"))
        if not kind:
            self.deprecate_v1(record.get("type") if record else None)

    def answered(self, write, answer):
        """The one-time credentials a create or PATCH answers (not a password the user gave), kept at once: a later
        failure, such as the wait's, still returns them, and they cannot be read again."""
        credentials = credentials_of(answer)
        if credentials and not (self.params["password_mode"] == "set" and "password" in credentials):
            self.result["credentials"] = credentials

    def other_kind(self):
        """The other ``type`` when ``storage_id`` exists only under it, else None.

        A read (``GET`` of the other type's path) that the ``examine`` hook needs: to become a declared read of the flow."""
        other = "sftp" if self.params["type"] == "s3_compatible" else "s3_compatible"
        try:
            found = self.client.get(V4_PATHS[other].format(id=self.params["storage_id"]))
        except ApiError as exc:
            if not says_absent(exc):
                raise
            found = None
        return other if self.exists(found) else None

    def tell_lost_credentials(self, record):
        """A create or a new password that the state read again showed applied after its answer was lost: the secrets
        that answer held cannot be read again; say so, once, and how to get new ones."""
        ledger = getattr(self, "ledger", None)
        if self.lost_credentials_told or not ledger or self.result.get("credentials"):
            return
        ident = (record or {}).get("id")
        for write in ledger.confirmed:
            body = write.body or {}
            if write.kind == "create" and self.params["type"] == "s3_compatible":
                self.module.warn("Storage %s was created, but the answer holding its S3 access keys was lost, and the keys "
                                 "cannot be read again; create a new key pair for it in the Gcore Customer Portal, or delete "
                                 "the storage and create it again to get new keys" % ident)
            elif body.get("password_mode") == "auto":
                if write.kind == "create":
                    what = "was created with a generated password, but the answer holding it was lost"
                elif (write.locked or {}).get("has_password"):  # a rotation: a read cannot tell an old password from a new one
                    what = "may have been given a new generated password (the one before it may no longer work), but the " \
                           "answer to the PATCH that asked for it was lost"
                else:
                    what = "was given a generated password, but the answer holding it was lost"
                self.module.warn("Storage %s %s, so the new password could not be returned and cannot be read again; run "
                                 "the task again with password_mode: auto and update_password: always to get a new one"
                                 % (ident, what))
            else:
                continue
            self.lost_credentials_told = True
            return

    def deprecate_v1(self, found_kind):
        advice = "set type=s3_compatible (DELETE /storage/v4/object_storages/{storage_id}) for an S3-compatible storage " \
                 "or type=sftp (DELETE /storage/v4/sftp_storages/{storage_id}) for an SFTP storage"
        if found_kind in V4_PATHS:
            advice += "; storage %s is %s, so set type=%s" % (self.params["storage_id"], found_kind, found_kind)
        self.module.deprecate(
            "gcore.platform.storage without the type option calls the deprecated API DELETE "
            "/storage/provisioning/v1/storage/{storage_id}: %s." % advice,
            version="2.0.0",
            collection_name="gcore.platform",
        )


def main():
    Storage.main()


if __name__ == "__main__":
    main()
