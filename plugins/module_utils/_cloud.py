# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A Gcore Cloud resource as a declaration: its ``Kind`` (one of ``_kinds.KINDS``) says where it lives and what its ids
and names look like, and declares the rest (``Kind.declare``) of a module that makes one match (``CloudResource``) or
reads them (``CloudInfo``): options, checks, paths. Their settings beyond ``GcoreResourceModule``'s (``_resource``):

=================  ===========================================================================================
setting            meaning
=================  ===========================================================================================
kind               the ``Kind`` the module manages or reads
options            the module's own options (the state, the id option, ``name`` and the tags are derived)
states             the choices of ``state`` (default: present, absent)
tagged             the resource has tags: the options ``tags`` and ``purge_tags``, the ``tags`` member last (``_tags.with_tags``)
others             the records a create looks among for a hand rename (None: one listing filtered by the declared tags)
create_options     the options the create body carries as given, when given (``create_body`` adds the rest)
uuid_options       more options holding a UUID: checked and made canonical
task_types         ``{write kind: task type}``: a write whose answer was lost waits for such tasks before reading again
filters            (an info module) the listing filters it takes besides the id and the exact name (``Filter``)
=================  ===========================================================================================

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

from collections import namedtuple

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, canonical_uuid, check_name, check_range, gcore_argument_spec
from ansible_collections.gcore.platform.plugins.module_utils._members import differences
from ansible_collections.gcore.platform.plugins.module_utils._resource import GcoreResourceModule
from ansible_collections.gcore.platform.plugins.module_utils._tags import TAGS_OPTIONS, check_tags, renamed, tag_query, with_tags

PAGE_SIZE = 1000  # the largest page the Cloud listings serve (their default is 10)
REGION = "project {project_id}, region {region_id}"
# A listing filter of an info module (``CloudInfo``): ``option`` and its ``spec``, ``query(value)``, ``matches(record, value)``
# (a record read by id too), ``check(option, value)`` (before any request: the value, canonical) and ``resolve(module, value)``
# (the value as the query takes it, read before the listing; None: nothing can match).
Filter = namedtuple("Filter", "option spec query matches check resolve", defaults=(lambda option, value: value, lambda module, value: value))


class Kind:
    """What a Cloud resource is: its ``noun`` and ``collection``, whose paths follow one rule (``path``; ``owner``: a region,
    a project when not ``regional``, or a client) but those ``paths`` declares by operation; its ``id_option`` (``id_aliases``;
    ``integer_id``, else UUIDs) and ``id_key`` (``identified``); ``name_length`` (None: any name but empty) and the listing's
    name filter ``name_query`` (parameter, longest name), or ``nameless`` (no ``name`` option: found by id, by ``find``,
    or an info module's filters); an info module's ``plural`` and ``list_params``; ``total_key``."""

    def __init__(self, noun, collection, id_option=None, title=None, plural=None, paths=None, name_query=("name", 63),
                 created_key=None, regional=True, total_key=None, id_aliases=(), id_key="id", name_length=63, list_params=None,
                 integer_id=False, owner=None, nameless=False):
        self.noun, self.collection, self.title, self.id_key, self.name_length = noun, collection, title, id_key, name_length
        self.list_params = list_params or {}
        self.nameless = nameless
        self.key = noun.replace(" ", "_").lower()
        self.id_option = id_option or self.key + "_id"
        self.id_spec = dict(type="int" if integer_id else "str", **(dict(aliases=list(id_aliases)) if id_aliases else {}))
        self.plural = plural or self.key + "s"
        self.name_query, self.created_key, self.regional, self.total_key = name_query, created_key or collection, regional, total_key
        self.scope = REGION if regional else "project {project_id}"
        self.owner = owner or ("{project_id}/{region_id}" if regional else "{project_id}")
        self.paths = dict(list=self.path(), item=self.path("/{id}"))
        self.paths.update((operation, self.path(*path)) for operation, path in (paths or {}).items())

    def path(self, suffix="", version="v1", collection=None):
        """A path of the kind: its (or a sibling) collection's at ``version``, then ``suffix`` (``"/{id}/attach"``)."""
        return "/cloud/%s/%s/%s%s" % (version, collection or self.collection, self.owner, suffix)

    def identified(self, record):
        """A record with its id as ``id`` (the core reads ``id``), when the kind keeps it under another member."""
        return record if record is None or self.id_key == "id" else dict(record, id=record.get(self.id_key))

    def declare(self, cls, rule, first, then, **settings):
        """Set on ``cls``, the kind's declaration, what it does not say itself: ``settings``, the options ``first``, the id
        option, ``name`` (unless ``nameless``; ``rule`` binds the two), ``project_id`` (not ``regional``), ``then``."""
        spec = dict(first, **{self.id_option: dict(self.id_spec)})
        if not self.nameless:
            spec["name"] = dict(type="str")
            settings["module_kwargs"] = dict(cls.module_kwargs, **{rule: [(self.id_option, "name")]})
        if not self.regional:
            spec["project_id"] = gcore_argument_spec(cloud=True)["project_id"]
        settings.update(argument_spec=dict(spec, **then), cloud=self.regional)
        for setting in set(settings) - set(vars(cls)):  # what the declaration says itself stands
            setattr(cls, setting, settings[setting])

    def check(self, params):
        """The identity checked: a project-scoped kind's project, the id (a canonical UUID, or an integer at least 1), the name."""
        if not self.regional:
            check_range("project_id", params["project_id"], low=1)
        if self.id_spec["type"] == "int":
            check_range(self.id_option, params[self.id_option], low=1)
        else:
            canonical_uuid(params, self.id_option)
        if not self.nameless:
            check_name("name", params["name"], longest=self.name_length)

    def query(self, name):
        """The listing's filter for an exact ``name`` (names are compared after: the filters match parts of names)."""
        return {} if name is None or self.name_query is None or len(name) > self.name_query[1] else {self.name_query[0]: name}


class CloudResource(GcoreResourceModule):
    """A module that makes one Cloud resource match: a declaration of ``kind`` and what differs (module docstring)."""

    kind = None
    options = {}
    states = ("present", "absent")
    tagged = False
    create_options = ()
    uuid_options = ()
    cloud = waits = asynchronous = True
    lock = "task_id"
    page_size = PAGE_SIZE
    required_to_create = ("name",)
    task_types = {}
    others = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if kind is not None:  # the id or the name is required
            kind.declare(cls, "required_one_of", dict(state=dict(type="str", choices=list(cls.states), default="present")),
                         dict(cls.options, **(TAGS_OPTIONS if cls.tagged else {})), noun=kind.noun, title=kind.title, result_key=kind.key,
                         scope=kind.scope, paths=kind.paths, id_option=kind.id_option, created_key=kind.created_key,
                         **(dict(name_option=None, required_to_create=()) if kind.nameless else {}))
            if cls.tagged and "members" in cls.__dict__:
                cls.members = with_tags(cls.__dict__["members"])

    def validate(self):
        super().validate()
        self.kind.check(self.params)
        for option in self.uuid_options:
            canonical_uuid(self.params, option)
        if self.tagged:
            check_tags(self.params["tags"])

    def list_query(self):
        return self.kind.query(self.params.get("name"))

    def check_create(self):
        """A create is planned: a resource carrying every declared tag under another name is warned about (``_tags.renamed``)."""
        super().check_create()
        if self.tagged and not self.kind.nameless and self.params.get("tags"):
            found = self.listing(tag_query(self.params["tags"])) if self.others is None else self.others
            renamed(self, found, self.params["name"])

    def reread(self, kind=None):  # a record that names no task: its ``task_types`` awaited first
        if kind in self.task_types and self.params.get("wait", True):
            self.result.setdefault("tasks", []).extend(self.tasks.settle(self.params, self.task_types[kind]))
        return super().reread(kind)

    def settle(self, found, absent):
        """The identity rules, before anything is compared: an id and a name that disagree delete nothing; a rename into a
        name another resource of the kind holds in the scope fails naming its id (two of a name stop every later lookup)."""
        params, name = self.params, None if self.kind.nameless else self.params["name"]
        if self.exists_after(found) and name is not None and params.get(self.id_option) is not None and found.get("name") != name:
            if absent:
                raise Refused("%s %s is named %r, not %r: an id and a name that disagree delete nothing; give the one that "
                              "names the %s to delete (nothing was sent)" % (self.called(), found.get("id"), found.get("name"),
                                                                             name, self.noun))
            if "name" in differences([member for member in self.members if member.name == "name"], found, params):
                taken = [record.get("id") for record in self.listing(self.list_query())
                         if record.get("name") == name and record.get("id") != found.get("id")]
                if taken:
                    raise Refused("name: %s %s%s is already named %r, so %s %s cannot be renamed to it (names identify "
                                  "%ss: two of a name fail every later run); choose another name (nothing was sent)"
                                  % (self.noun, ", ".join(str(ident) for ident in taken), self.of_scope(), name, self.noun,
                                     found.get("id"), self.noun))
        return super().settle(found, absent)

    def read(self, ident=None):
        return self.kind.identified(super().read(ident))

    def listing(self, params=None):  # none under a parent check mode assumes an earlier task builds (``_parents.Assumed``)
        built = not any(getattr(value, "not_built", False) for value in (params or {}).values())
        return (self.kind.identified(record) for record in (super().listing(params) if built else ()))

    def returned(self, record):  # as the service shows it: without the ``id`` that ``Kind.identified`` gave it
        record = super().returned(record)
        return record if record is None or self.kind.id_key == "id" else dict((k, v) for k, v in record.items() if k != "id")

    def create_body(self):
        return dict((option, self.params[option]) for option in self.create_options if self.params.get(option) is not None)


class CloudInfo(GcoreModule):
    """A module that reads Cloud resources of one ``kind``: by id (none when it does not exist), by exact name (every
    page: the service's filters match parts of names), or all; narrowed by ``filters``. Returns ``{plural: records}``."""

    kind = None
    filters = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("kind") is not None:  # the id and the name: at most one of them
            cls.kind.declare(cls, "mutually_exclusive", {}, dict((item.option, item.spec) for item in cls.filters))

    def validate(self):
        super().validate()
        self.kind.check(self.params)
        for item in self.filters:
            if self.params[item.option] is not None:
                self.params[item.option] = item.check(item.option, self.params[item.option])

    def returned(self, record):  # a record as the result shows it
        return record

    def run(self):
        params, kind, name = self.params, self.kind, self.params.get("name")
        given = [(item, item.resolve(self, params[item.option])) for item in self.filters if params[item.option] is not None]
        if any(value is None for _item, value in given):
            return {kind.plural: []}
        if params[kind.id_option] is not None:
            record = self.client.get_or_none(kind.paths["item"].format(**dict(params, id=params[kind.id_option])))
            records = [] if record is None else [record]
        else:
            query = dict(kind.list_params, **kind.query(name))
            for item, value in given:
                query.update(item.query(value))
            records = self.client.paginate(kind.paths["list"].format(**params), query or None, page_size=PAGE_SIZE, total_key=kind.total_key)
        return {kind.plural: [self.returned(record) for record in records if (name is None or record.get("name") == name)
                              and all(item.matches(record, value) for item, value in given)]}
