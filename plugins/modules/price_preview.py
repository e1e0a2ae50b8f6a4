#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: price_preview
short_description: Preview the price of new Gcore Cloud instances
version_added: 1.0.0
description:
  - Asks Gcore Cloud what a planned group of instances would cost, per hour and per month, with the flavor, the
    interfaces and the volumes, before anything is created.
  - Calls C(POST /cloud/v2/pricing/{project_id}/{region_id}/instances).
  - Nothing is created. The call only reads, so the module never reports a change and runs normally in check mode.
  - Every price in the answer is returned in its declared type, whichever form the service sent. The service sends
    the totals as quoted decimals (such as C("734.40")); they are parsed exactly (as decimals) and returned as numbers.
  - With O(max_price_per_month), the task fails when the monthly total is above it.
author:
  - gcore.platform developers (@gcore-platform)
options:
  flavor:
    description:
      - Flavor of the instances, for example V(g1-standard-2-4) or V(bm1-basic-medium).
    type: str
    required: true
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
    required: true
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
"""

RETURN = r"""
price:
  description:
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
from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError, check_range, check_uuid, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import (
    interfaces_body,
    interfaces_option,
    validate_interfaces,
)

PATH = "/cloud/v2/pricing/{project_id}/{region_id}/instances"
VOLUME_SOURCES = ["new-volume", "image", "snapshot", "apptemplate", "existing-volume"]
VOLUME_TYPES = ["standard", "ssd_hiiops", "ssd_lowlatency", "ssd_local", "cold", "ultra"]

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


def over_budget(price, max_price):
    """The failure message when the monthly total is above ``max_price`` (or cannot be told), else None."""
    if max_price is None:
        return None
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
        flavor=dict(type="str", required=True),
        names=dict(type="list", elements="str"),
        name_templates=dict(type="list", elements="str"),
        interfaces=interfaces_option(required=True),
        volumes=dict(type="list", elements="dict", options=dict(
            source=dict(type="str", required=True, choices=VOLUME_SOURCES),
            size=dict(type="int"),
            type_name=dict(type="str", choices=VOLUME_TYPES),
            snapshot_id=dict(type="str"),
            image_id=dict(type="str"),
        )),
        max_price_per_month=dict(type="float"),
    )

    def validate(self):
        super().validate()
        params = self.params
        if not params["flavor"]:
            raise ValidationError("flavor: must not be empty")
        if not params["names"] and not params["name_templates"]:
            raise ValidationError("names or name_templates: one of them is required, with at least one item")
        validate_interfaces("interfaces", params["interfaces"], at_least_one=True)
        for index, volume in enumerate(params["volumes"] or []):
            name = "volumes[%d]" % index
            check_range("%s.size" % name, volume["size"], low=1)
            if volume["source"] == "snapshot" and not volume["snapshot_id"]:
                raise ValidationError("%s.snapshot_id: required when source is snapshot" % name)
            check_uuid("%s.snapshot_id" % name, volume["snapshot_id"])
            check_uuid("%s.image_id" % name, volume["image_id"])
        check_range("max_price_per_month", params["max_price_per_month"], low=0)

    def body(self):
        params = self.params
        return strip_none(dict(flavor=params["flavor"], names=params["names"], name_templates=params["name_templates"],
                               interfaces=interfaces_body(params["interfaces"]), volumes=params["volumes"]))

    def run(self):
        answer = self.client.request("POST", PATH.format(**self.params), json=self.body(), safe=True, ok=(200,))
        try:
            price = normalize_price(answer)
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
