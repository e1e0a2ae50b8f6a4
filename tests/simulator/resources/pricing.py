# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Instance price preview: POST /cloud/v2/pricing/{project_id}/{region_id}/instances (docs/api_reference.md section 5).

The price is computed from the flavor table of ``quota`` (hourly price; a month is 720 hours), one
external IP per instance and ``external`` interface, one floating IP per instance and ``floating_ip:
{source: new}``, and the volumes (per GiB and month by type; an ``existing-volume`` is already paid
for; a volume without ``size`` is priced at 10 GiB, except a ``new-volume``, which then costs nothing).

Like the real service, the three totals (``total_price_per_hour``, ``total_price_per_month``,
``price_without_discount_per_month``) are answered as QUOTED decimal strings (``"590.40"``) although
the schema declares numbers; ``per_hour`` / ``per_month`` / ``per_gb`` members are numbers, or null for
a category the request does not use; ``discount_percent`` and each ``discount`` are strings.

Settings (POST /_sim/config): ``price_quote_totals`` (default true; false answers the totals as
numbers), ``price_currency`` (default ``USD``), ``price_tax_percent`` (default 0), ``price_discounts``
{resource: "0.25"} (``flavor``, ``external_ip``, ``floating_ip`` or a volume type), and
``price_unavailable`` (true: ``price_status: error`` with every price null).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from simulator import control
from simulator.core import Resource, Route
from simulator.resources.production import scope
from simulator.resources.quota import FLAVORS, check_interfaces, server_count
from simulator.validation import body_of, check_enum, check_int, check_list, check_object, check_str, invalid

PATH = r"/cloud/v2/pricing/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)/instances"
HOURS_PER_MONTH = Decimal(720)
VOLUME_SOURCES = ("apptemplate", "existing-volume", "image", "new-volume", "snapshot")
# Price of one GiB for a month, by volume type.
VOLUME_TYPES = {"standard": "0.1", "ssd_hiiops": "0.2", "ssd_lowlatency": "0.25", "ssd_local": "0.15", "cold": "0.05", "ultra": "0.4"}
EXTERNAL_IP_HOUR = Decimal("0.02")
FLOATING_IP_HOUR = Decimal("0.05")
DEFAULT_VOLUME_SIZE = 10
PER_GB = {"egress_traffic_baremetal": 0.05, "egress_traffic_virtual": 0.01}
CENT = Decimal("0.01")
HUNDREDTH_CENT = Decimal("0.0001")


def check_volumes(volumes):
    for index, volume in enumerate(check_list("volumes", volumes)):
        loc = "volumes.%d" % index
        # The schema lists only what pricing needs and does not forbid other members: image_id is passed
        # through (it appears in the published example); any other member is refused.
        check_object(loc, volume, {"source"}, {"source", "size", "type_name", "snapshot_id", "image_id"})
        check_enum(loc + ".source", volume["source"], VOLUME_SOURCES)
        if "size" in volume:
            check_int(loc + ".size", volume["size"], nullable=True, low=1)
        if "type_name" in volume:
            check_enum(loc + ".type_name", volume["type_name"], tuple(VOLUME_TYPES), nullable=True)
        if "snapshot_id" in volume:
            check_str(loc + ".snapshot_id", volume["snapshot_id"], nullable=True)
        if "image_id" in volume:
            check_str(loc + ".image_id", volume["image_id"], nullable=True)
        if volume["source"] == "snapshot" and not volume.get("snapshot_id"):
            invalid(loc + ".snapshot_id", "snapshot_id is mandatory when the source is snapshot")
    return volumes


def month_price_of(volume):
    if volume["source"] == "existing-volume":
        return Decimal(0)
    size = volume.get("size")
    if size is None:
        size = 0 if volume["source"] == "new-volume" else DEFAULT_VOLUME_SIZE
    return Decimal(size) * Decimal(VOLUME_TYPES[volume.get("type_name") or "standard"])


class Pricing(Resource):
    NAME = "pricing"
    ROUTES = (
        Route("POST", PATH, "preview", read_only=True),
    )
    SETTINGS = {
        "price_quote_totals": (True, control.boolean),
        "price_currency": ("USD", control.text),
        "price_tax_percent": (0, control.number(high=100)),
        "price_discounts": ({}, control.mapping(control.decimal_text)),
        "price_unavailable": (False, control.boolean),
    }

    def preview(self, request):
        scope(request)
        body = body_of(request, required_body=True)
        check_object("", body, {"flavor", "interfaces"}, {"flavor", "interfaces", "names", "name_templates", "volumes"})
        flavor = body["flavor"]
        check_str("flavor", flavor)
        if flavor not in FLAVORS:
            invalid("flavor", "unknown flavor %s" % flavor)
        interfaces = check_interfaces(body["interfaces"])
        volumes = check_volumes(body["volumes"]) if "volumes" in body else []
        count = server_count(body)
        config = self.sim.config
        discounts = dict((key, Decimal(str(value))) for key, value in (config.get("price_discounts") or {}).items())
        tax = Decimal(str(config.get("price_tax_percent", 0)))

        # Month prices by category, before discount (None: the category is not used).
        months = {
            "flavor": Decimal(FLAVORS[flavor]["hour"]) * HOURS_PER_MONTH * count,
            "external_ip": None, "floating_ip": None,
        }
        external = sum(1 for item in interfaces if item["type"] == "external") * count
        floating = sum(1 for item in interfaces if (item.get("floating_ip") or {}).get("source") == "new") * count
        if external:
            months["external_ip"] = EXTERNAL_IP_HOUR * HOURS_PER_MONTH * external
        if floating:
            months["floating_ip"] = FLOATING_IP_HOUR * HOURS_PER_MONTH * floating
        volume_months = {}
        for volume in volumes:
            kind = volume.get("type_name") or "standard"
            volume_months[kind] = volume_months.get(kind, Decimal(0)) + month_price_of(volume) * count

        def discounted(resource, value):
            return None if value is None else value * (1 - discounts.get(resource, Decimal(0)))

        without = sum(value for value in list(months.values()) + list(volume_months.values()) if value is not None)
        month = dict((key, discounted(key, value)) for key, value in months.items())
        volume_month = dict((key, discounted(key, value)) for key, value in volume_months.items())
        subtotal = sum(value for value in list(month.values()) + list(volume_month.values()) if value is not None)
        factor = 1 + tax / 100
        total_month = (subtotal * factor).quantize(CENT, ROUND_HALF_UP)
        total_hour = (subtotal * factor / HOURS_PER_MONTH).quantize(HUNDREDTH_CENT, ROUND_HALF_UP)
        without_month = (without * factor).quantize(CENT, ROUND_HALF_UP)
        discount_percent = Decimal(0) if not without else ((1 - subtotal / without) * 100)

        def category(prices, volume_prices, divisor, step):
            def number(value):
                return None if value is None else float((value / divisor).quantize(step, ROUND_HALF_UP))
            return {
                "external_ip": number(prices["external_ip"]),
                "flavor": number(prices["flavor"]),
                "floating_ip": number(prices["floating_ip"]),
                "volumes": dict((key, number(value)) for key, value in sorted(volume_prices.items())) or None,
            }

        def total(value):
            if config.get("price_quote_totals", True):
                return "%s" % value
            return float(value)

        result = {
            "currency_code": config.get("price_currency", "USD"),
            "discount_details": [{"discount": "%s" % value, "resource": key} for key, value in sorted(discounts.items())],
            "discount_percent": "%s" % discount_percent.quantize(CENT, ROUND_HALF_UP),
            "per_gb": dict(PER_GB),
            "per_hour": category(month, volume_month, HOURS_PER_MONTH, HUNDREDTH_CENT),
            "per_month": category(month, volume_month, Decimal(1), CENT),
            "price_status": "show",
            "price_without_discount_per_month": total(without_month),
            "tax_percent": float(tax) if tax != tax.to_integral_value() else int(tax),
            "total_price_per_hour": total(total_hour),
            "total_price_per_month": total(total_month),
            "vm_count": count,
        }
        if config.get("price_unavailable"):
            result.update(price_status="error", per_gb=None, price_without_discount_per_month=None,
                          total_price_per_hour=None, total_price_per_month=None,
                          per_hour={"external_ip": None, "flavor": None, "floating_ip": None, "volumes": None},
                          per_month={"external_ip": None, "flavor": None, "floating_ip": None, "volumes": None})
        return result
