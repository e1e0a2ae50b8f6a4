#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: price_preview
short_description: Preview the price of new Gcore Cloud instances or a managed Kubernetes cluster
version_added: 1.0.0
description:
  - Asks Gcore Cloud what a planned group of instances would cost, per hour and per month, with the flavor, the
    interfaces and the volumes, before anything is created.
  - With O(resource=k8s_cluster), prices the pools of a planned Kubernetes cluster instead; with O(max_price_per_month),
    the task fails when the monthly total is above it.
  - Nothing is created. The call only reads, so the module never reports a change and runs normally in check mode.
author:
  - gcore.platform developers (@gcore-platform)
options:
  resource:
    description:
      - V(instance) prices O(flavor), O(interfaces), O(volumes) and O(names) or O(name_templates); V(k8s_cluster) prices
        O(pools) (and takes O(version), not priced, so that a M(gcore.platform.k8s_cluster) declaration passes as it is).
        Options of the other resource are refused.
    type: str
    choices: [instance, k8s_cluster]
    default: instance
  version:
    description: The cluster's Kubernetes version (O(resource=k8s_cluster)); the price does not depend on it.
    type: str
  pools:
    description:
      - The node pools of the planned cluster (O(resource=k8s_cluster)), at least one.
      - The budget is compared with the answer's C(total_price.price_per_month).
    type: list
    elements: dict
    suboptions:
      name: {description: "The pool's name (not priced).", type: str}
      flavor_id: {description: "The nodes' flavor.", type: str, required: true}
      min_node_count: {description: "Priced when O(pools[].node_count) is left out.", type: int}
      node_count: {description: "The nodes priced, 1 to 200.", type: int}
      boot_volume_size: {description: "10 to 2000 GiB.", type: int}
      boot_volume_type: {description: "The boot volumes' type.", type: str, choices: [cold, ssd_hiiops, ssd_local, ssd_lowlatency, standard, ultra]}
      is_public_ipv4: {description: "A public IPv4 address on each node.", type: bool}
  flavor:
    description:
      - Flavor of the instances, for example V(g1-standard-2-4) or V(bm1-basic-medium). Required for O(resource=instance).
    type: str
  names:
    description:
      - Names of the instances; one instance per name.
      - At least one of O(names) and O(name_templates) is required; both may be given.
    type: list
    elements: str
  name_templates:
    description:
      - Name templates of the instances, for example V(my-vm-{ip_octets}); one instance per template.
      - At least one of O(names) and O(name_templates) is required; both may be given.
    type: list
    elements: str
  interfaces:
    description:
      - Network interfaces of each instance, in order; at least one.
      - Each item is one of four variants chosen by O(interfaces[].type), documented in the suboptions;
        a field given for a type that has no such field, or missing where the type requires it, fails validation
        before any request is sent. Only the fields given are sent.
      - Required for O(resource=instance).
  volumes:
    description:
      - Volumes of each instance. Only the fields given are sent.
    type: list
    elements: dict
    suboptions:
      source:
        description:
          - Where the volume comes from.
        type: str
        required: true
        choices: [new-volume, image, snapshot, apptemplate, existing-volume]
      size:
        description:
          - Size in GiB, at least 1.
        type: int
      type_name:
        description:
          - Volume type.
        type: str
        choices: [standard, ssd_hiiops, ssd_lowlatency, ssd_local, cold, ultra]
      snapshot_id:
        description:
          - UUID of the snapshot. Required when O(volumes[].source=snapshot).
        type: str
      image_id:
        description:
          - UUID of the image (for O(volumes[].source=image)). Passed through; the price does not depend on it.
        type: str
  max_price_per_month:
    description:
      - A budget. When the monthly total (RV(price.total_price_per_month)) is above it, the task fails naming both
        figures and the currency; RV(price) is returned all the same.
      - When the service sends no monthly total (for example when it cannot price the request), the budget cannot be
        checked and the task fails.
      - In the currency of the answer (RV(price.currency_code)).
      - A finite number of at least V(0); V(nan), V(inf) and a boolean fail validation before any request is sent.
    type: float
notes:
  - Calls C(POST /cloud/v2/pricing/{project_id}/{region_id}/instances); with O(resource=k8s_cluster), prices the pools
    of a planned Kubernetes cluster with C(POST /cloud/v2/pricing/{project_id}/{region_id}/k8s/clusters) instead.
  - Every price in the answer is returned in its declared type, whichever form the service sent. The service sends
    the totals as quoted decimals (such as C("734.40")); they are parsed exactly (as decimals) and returned as numbers.
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.interfaces
  - gcore.platform.attributes.INFO_MODULE
seealso:
  - module: gcore.platform.quota_check
"""

EXAMPLES = r"""
- name: What would three web servers cost?
  gcore.platform.price_preview:
    flavor: g1-standard-2-4
    names: [web-1, web-2, web-3]
    interfaces:
      - type: external
    volumes:
      - source: image
        image_id: 9c5e2b4a-7d1f-4e3b-8a6c-5f0d2e1b3a47
        size: 20
        type_name: ssd_hiiops
  register: preview

- name: Show the monthly total
  ansible.builtin.debug:
    msg: "{{ preview.price.total_price_per_month }} {{ preview.price.currency_code }} a month"

- name: Fail when a bare metal server goes over budget
  gcore.platform.price_preview:
    flavor: bm1-basic-medium
    name_templates: ["bm-{ip_octets}"]
    interfaces:
      - type: any_subnet
        network_id: 0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90
        ip_family: dual
        floating_ip:
          source: new
    max_price_per_month: 600

- name: Price a Kubernetes cluster's pools, with a budget
  gcore.platform.price_preview:
    resource: k8s_cluster
    version: v1.31.1
    pools:
      - {name: web, flavor_id: g1-standard-2-4, node_count: 3, boot_volume_size: 50}
      - {name: batch, flavor_id: g1-standard-4-8, min_node_count: 1}
    max_price_per_month: 600
"""

RETURN = r"""
price:
  description:
    - With O(resource=k8s_cluster), the service's answer C({instances, volumes, publicips, total_price}), each price
      C({currency_code, price_per_hour, price_per_month, ...}) with its numbers as numbers; the members below are those
      of an instance preview.
    - The service's price preview with every field in its declared type. Fields declared as numbers are numbers
      (floats) whether the service sent them quoted or not; C(discount_percent) and C(discount_details[].discount)
      are strings; V(null) stays V(null). Members this module does not know are returned as they were sent.
  returned: success or when O(max_price_per_month) fails the task
  type: dict
  contains:
    currency_code:
      description: Currency of every price, V(USD), V(EUR) or V(AZN); may be V(null).
      type: str
      sample: USD
    total_price_per_hour:
      description: Total price per hour, VAT included; may be V(null).
      type: float
      sample: 0.82
    total_price_per_month:
      description: Total price per month, VAT included; may be V(null).
      type: float
      sample: 590.4
    price_without_discount_per_month:
      description: Total price per month, VAT included, without discount; may be V(null).
      type: float
      sample: 590.4
    discount_percent:
      description: The discount actually applied, as a decimal string.
      type: str
      sample: "0.00"
    discount_details:
      description: Discount per resource; C(discount) is a decimal string, a fraction from 0 to 1.
      type: list
      elements: dict
      sample: [{resource: ssd_hiiops, discount: "0.5"}]
    tax_percent:
      description: Tax rate applied to the subtotal, in percent.
      type: float
      sample: 0.0
    per_hour:
      description:
        - Prices per hour by category, numbers or V(null) - C(flavor), C(external_ip), C(floating_ip) and
          C(volumes) (by volume type, or V(null) when there are no volumes).
      type: dict
      sample: {flavor: 0.8, external_ip: 0.02, floating_ip: null, volumes: null}
    per_month:
      description: Prices per month by category, in the same shape as RV(price.per_hour).
      type: dict
      sample: {flavor: 576.0, external_ip: 14.4, floating_ip: null, volumes: null}
    per_gb:
      description: Prices per GB of egress traffic (C(egress_traffic_baremetal), C(egress_traffic_virtual)), or V(null).
      type: dict
      sample: {egress_traffic_baremetal: 0.05, egress_traffic_virtual: 0.01}
    price_status:
      description: The service's display hint for the price, V(show), V(hide) or V(error).
      type: str
      sample: show
    vm_count:
      description: Number of instances priced.
      type: int
      sample: 1
"""

from decimal import Decimal, InvalidOperation

from ansible_collections.gcore.platform.plugins.module_utils._base import GcoreModule
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_range, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import (
    interfaces_body,
    interfaces_option,
    validate_interfaces,
)
from ansible_collections.gcore.platform.plugins.module_utils._volumes import PLANNED, TYPES, check_planned

PATHS = dict((resource, KINDS[resource].paths["price"]) for resource in ("instance", "k8s_cluster"))
INSTANCE_OPTIONS = ("flavor", "names", "name_templates", "interfaces", "volumes")

# The declared type of each member of the answer (InstancePricingPreviewV2ResponseSerializer).
NUMBER_FIELDS = ("price_without_discount_per_month", "tax_percent", "total_price_per_hour", "total_price_per_month")
CATEGORY_FIELDS = ("per_hour", "per_month")
CATEGORY_NUMBERS = ("external_ip", "flavor", "floating_ip")


class PriceFormatError(ValueError):
    """A price member that is neither a number, a decimal string nor null."""


def to_number(value, where="price"):
    """A member declared as a number: a float, parsed exactly through Decimal; None stays None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise PriceFormatError("%s: %r is not a number" % (where, value))
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise PriceFormatError("%s: %r is not a number" % (where, value))
    if not number.is_finite():
        raise PriceFormatError("%s: %r is not a finite number" % (where, value))
    return float(number)


def to_string(value):
    """A member declared as a string (a decimal text): numbers become their decimal text; None stays None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(Decimal(str(value)))
    return value


def to_integer(value, where="price"):
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    number = Decimal(str(to_number(value, where)))
    if number != number.to_integral_value():
        raise PriceFormatError("%s: %r is not an integer" % (where, value))
    return int(number)


def _numbers(mapping, where):
    """A dict whose every member is a price (volumes by type, per_gb)."""
    if not isinstance(mapping, dict):
        return mapping if mapping is None else to_number(mapping, where)
    return dict((key, to_number(value, "%s.%s" % (where, key))) for key, value in mapping.items())


def normalize_price(price):
    """The price preview with every member in its declared type; unknown members are kept as sent."""
    if not isinstance(price, dict):
        raise PriceFormatError("the answer is not a JSON object: %r" % (price,))
    result = dict(price)
    for key in NUMBER_FIELDS:
        if key in result:
            result[key] = to_number(result[key], key)
    if "discount_percent" in result:
        result["discount_percent"] = to_string(result["discount_percent"])
    if "vm_count" in result:
        result["vm_count"] = to_integer(result["vm_count"], "vm_count")
    for key in CATEGORY_FIELDS:
        category = result.get(key)
        if isinstance(category, dict):
            category = dict(category)
            for member in CATEGORY_NUMBERS:
                if member in category:
                    category[member] = to_number(category[member], "%s.%s" % (key, member))
            if "volumes" in category:
                category["volumes"] = _numbers(category["volumes"], "%s.volumes" % key)
            result[key] = category
    if "per_gb" in result:
        result["per_gb"] = _numbers(result["per_gb"], "per_gb")
    if isinstance(result.get("discount_details"), list):
        result["discount_details"] = [
            dict(item, discount=to_string(item["discount"])) if isinstance(item, dict) and "discount" in item else item
            for item in result["discount_details"]]
    return result


def normalize_k8s_price(price):
    """A Kubernetes cluster's price (``{instances, volumes, publicips, total_price}``) with its numbers as numbers."""
    if not isinstance(price, dict):
        raise PriceFormatError("the answer is not a JSON object: %r" % (price,))

    def item(value, where):
        return dict(value, **dict((key, to_number(value[key], "%s.%s" % (where, key))) for key in value if key.startswith(
            ("price_", "discount_percent", "tax_percent")) and key != "price_status")) if isinstance(value, dict) else value
    result = dict((key, [item(value, "%s[%d]" % (key, index)) for index, value in enumerate(price.get(key) or [])])
                  for key in ("instances", "volumes", "publicips"))
    return dict(price, total_price=item(price.get("total_price"), "total_price"), **result)


def over_budget(price, max_price):
    """The failure message when the monthly total is above ``max_price`` (or cannot be told), else None."""
    if max_price is None:
        return None
    if "total_price" in price:  # a Kubernetes cluster's price: its total is an item price
        price = dict(currency_code=(price["total_price"] or {}).get("currency_code"),
                     total_price_per_month=(price["total_price"] or {}).get("price_per_month"), price_status=(price["total_price"] or {}).get("price_status"))
    currency = price.get("currency_code") or "(currency not given)"
    total = price.get("total_price_per_month")
    if total is None:
        return ("Cannot check max_price_per_month %s %s: the service sent no total_price_per_month (price_status %s)"
                % (max_price, currency, price.get("price_status")))
    if Decimal(str(total)) > Decimal(str(max_price)):
        return "total_price_per_month %s %s is above max_price_per_month %s %s" % (total, currency, max_price, currency)
    return None


class PricePreview(GcoreModule):
    cloud = True
    argument_spec = dict(
        resource=dict(type="str", choices=["instance", "k8s_cluster"], default="instance"),
        version=dict(type="str"),
        pools=dict(type="list", elements="dict", options=dict(
            name=dict(type="str"), flavor_id=dict(type="str", required=True), min_node_count=dict(type="int"), node_count=dict(type="int"),
            boot_volume_size=dict(type="int"), is_public_ipv4=dict(type="bool"),
            boot_volume_type=dict(type="str", choices=sorted(TYPES)))),
        flavor=dict(type="str"),
        names=dict(type="list", elements="str"),
        name_templates=dict(type="list", elements="str"),
        interfaces=interfaces_option(),
        volumes=PLANNED,
        max_price_per_month=dict(type="float"),
    )
    module_kwargs = dict(required_if=[("resource", "instance", ("flavor", "interfaces"))])

    def validate(self):
        super().validate()
        params = self.params
        check_range("max_price_per_month", params["max_price_per_month"], low=0)
        kubernetes = params["resource"] == "k8s_cluster"
        for option in INSTANCE_OPTIONS + ("version", "pools"):
            if params[option] is not None and (option in INSTANCE_OPTIONS) is kubernetes:
                raise ValidationError("%s: only for resource %s" % (option, "instance" if kubernetes else "k8s_cluster"))
        if kubernetes:
            if not params["pools"]:
                raise ValidationError("pools: required for resource k8s_cluster, with at least one pool")
            for index, pool in enumerate(params["pools"]):
                for member, low, high in (("min_node_count", 1, 200), ("node_count", 1, 200), ("boot_volume_size", 10, 2000)):
                    check_range("pools[%d].%s" % (index, member), pool[member], low, high)
            return
        if not params["flavor"]:
            raise ValidationError("flavor: must not be empty")
        if not params["names"] and not params["name_templates"]:
            raise ValidationError("names or name_templates: one of them is required, with at least one item")
        validate_interfaces("interfaces", params["interfaces"], at_least_one=True)
        check_planned(params["volumes"])

    def body(self):
        params = self.params
        if params["resource"] == "k8s_cluster":  # each pool priced at its node_count, else its minimum (a new pool's size)
            return dict(pools=[strip_none(dict(flavor_id=pool["flavor_id"], node_count=pool["node_count"] or pool["min_node_count"],
                                               boot_volume_size=pool["boot_volume_size"], boot_volume_type=pool["boot_volume_type"],
                                               is_public_ipv4=pool["is_public_ipv4"])) for pool in params["pools"]])
        return strip_none(dict(flavor=params["flavor"], names=params["names"], name_templates=params["name_templates"],
                               interfaces=interfaces_body(params["interfaces"]), volumes=params["volumes"]))

    def run(self):
        kubernetes = self.params["resource"] == "k8s_cluster"
        answer = self.client.request("POST", PATHS[self.params["resource"]].format(**self.params), json=self.body(), safe=True, ok=(200,))
        try:
            price = normalize_k8s_price(answer) if kubernetes else normalize_price(answer)
        except PriceFormatError as exc:
            raise Refused("The price preview has a member of an unexpected type: %s" % exc, price=answer)
        failure = over_budget(price, self.params["max_price_per_month"])
        if failure:
            raise Refused(failure, price=price)
        return {"price": price}


def main():
    PricePreview.main()


if __name__ == "__main__":
    main()
