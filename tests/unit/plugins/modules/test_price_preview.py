# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""price_preview: every price member in its declared type, parsed through Decimal; the budget rule."""

from __future__ import annotations

import json

import pytest

from ansible_collections.gcore.platform.plugins.modules.price_preview import (
    PriceFormatError,
    normalize_price,
    over_budget,
    to_number,
    to_string,
)


@pytest.mark.parametrize("value, expected", [
    ("734.40", 734.4), ("734.4", 734.4), (734.4, 734.4), (734, 734.0), ("0.1", 0.1), ("1e2", 100.0), (" 2.50 ", 2.5),
    ("0.30000000000000004", 0.30000000000000004), (0, 0.0),
])
def test_numbers_quoted_or_not(value, expected):
    number = to_number(value)
    assert isinstance(number, float)
    assert number == expected


def test_null_stays_null():
    assert to_number(None) is None
    assert to_string(None) is None


@pytest.mark.parametrize("value", ["n/a", "", True, [1], {"a": 1}, "NaN", "Infinity"])
def test_what_is_not_a_number_is_refused(value):
    with pytest.raises(PriceFormatError):
        to_number(value, "total_price_per_month")


def test_declared_strings_stay_strings():
    assert to_string("10.50") == "10.50"
    assert to_string(10.5) == "10.5"
    assert to_string(0) == "0"


QUOTED = {
    "currency_code": "USD",
    "discount_details": [{"discount": "0.5", "resource": "ssd_hiiops"}, {"resource": "odd"}],
    "discount_percent": "10.50",
    "per_gb": {"egress_traffic_baremetal": 1.3, "egress_traffic_virtual": None},
    "per_hour": {"external_ip": 0.02, "flavor": "0.8", "floating_ip": None,
                 "volumes": {"cold": 0.1083, "ssd_hiiops": "0.0278", "standard": None, "ssd_local": 1}},
    "per_month": {"external_ip": 14.4, "flavor": 576, "floating_ip": 36, "volumes": None, "gpu": "x"},
    "price_status": "show",
    "price_without_discount_per_month": "800.00",
    "tax_percent": 17,
    "total_price_per_hour": "1.02",
    "total_price_per_month": "734.40",
    "vm_count": 1,
    "new_member": "kept",
}


def test_quoted_and_unquoted_answers_normalise_alike():
    quoted = normalize_price(QUOTED)
    unquoted = normalize_price(dict(QUOTED, total_price_per_hour=1.02, total_price_per_month=734.4,
                                    price_without_discount_per_month=800, discount_percent=10.50))
    assert quoted["total_price_per_month"] == unquoted["total_price_per_month"] == 734.4
    assert quoted["total_price_per_hour"] == unquoted["total_price_per_hour"] == 1.02
    assert quoted["price_without_discount_per_month"] == unquoted["price_without_discount_per_month"] == 800.0
    assert isinstance(quoted["total_price_per_month"], float)
    assert quoted["discount_percent"] == "10.50"
    assert unquoted["discount_percent"] == "10.5"


def test_every_member_in_its_declared_type():
    price = normalize_price(QUOTED)
    assert price["tax_percent"] == 17.0 and isinstance(price["tax_percent"], float)
    assert price["vm_count"] == 1 and isinstance(price["vm_count"], int)
    assert price["per_hour"] == {"external_ip": 0.02, "flavor": 0.8, "floating_ip": None,
                                 "volumes": {"cold": 0.1083, "ssd_hiiops": 0.0278, "standard": None, "ssd_local": 1.0}}
    assert price["per_month"]["flavor"] == 576.0 and isinstance(price["per_month"]["flavor"], float)
    assert price["per_month"]["volumes"] is None
    assert price["per_month"]["gpu"] == "x"  # a member we do not know is kept as sent
    assert price["per_gb"] == {"egress_traffic_baremetal": 1.3, "egress_traffic_virtual": None}
    assert price["discount_details"] == [{"discount": "0.5", "resource": "ssd_hiiops"}, {"resource": "odd"}]
    assert price["new_member"] == "kept"
    assert price["currency_code"] == "USD"
    assert QUOTED["total_price_per_month"] == "734.40"  # the answer itself is not changed


def test_nulls_everywhere():
    price = normalize_price({"currency_code": None, "per_gb": None, "per_hour": {"flavor": None, "volumes": None},
                             "price_without_discount_per_month": None, "total_price_per_hour": None,
                             "total_price_per_month": None, "discount_percent": "0.00", "discount_details": []})
    assert price["per_gb"] is None
    assert price["total_price_per_month"] is None
    assert price["per_hour"] == {"flavor": None, "volumes": None}


def test_a_member_of_the_wrong_kind_is_reported():
    with pytest.raises(PriceFormatError, match="per_hour.volumes.cold"):
        normalize_price({"per_hour": {"volumes": {"cold": "cheap"}}})
    with pytest.raises(PriceFormatError, match="vm_count"):
        normalize_price({"vm_count": 1.5})
    with pytest.raises(PriceFormatError):
        normalize_price(["not", "an", "object"])


def test_budget():
    price = normalize_price(QUOTED)
    assert over_budget(price, None) is None
    assert over_budget(price, 734.4) is None
    assert over_budget(price, 1000.0) is None
    assert over_budget(price, 734.39) == "total_price_per_month 734.4 USD is above max_price_per_month 734.39 USD"
    assert "(currency not given)" in over_budget(dict(price, currency_code=None), 1.0)
    assert over_budget(dict(price, total_price_per_month=None, price_status="error"), 100.0) == (
        "Cannot check max_price_per_month 100.0 USD: the service sent no total_price_per_month (price_status error)")


def test_decimal_comparison_is_exact():
    # 0.1 + 0.2 as floats is 0.30000000000000004; the budget compares decimals of what was sent.
    assert over_budget({"total_price_per_month": to_number("0.3"), "currency_code": "EUR"}, 0.3) is None


def test_a_k8s_cluster_is_priced_by_its_pools_and_the_budget_compared_with_its_total(server):
    import harness  # pylint: disable=import-outside-toplevel
    from ansible_collections.gcore.platform.plugins.modules import price_preview  # pylint: disable=import-outside-toplevel

    pools = [{"name": "web", "flavor_id": "g1-standard-2-4", "node_count": 3}, {"name": "batch", "flavor_id": "g1-standard-4-8", "min_node_count": 1}]
    args = dict(project_id=1, region_id=76, resource="k8s_cluster", version="v1.31.1", pools=pools)
    result = harness.run(server, price_preview, args)
    (entry,) = server.requests(method="POST")
    assert entry["path"] == "/cloud/v2/pricing/1/76/k8s/clusters" and not entry["write"]
    assert json.loads(entry["body"]) == {"pools": [{"flavor_id": "g1-standard-2-4", "node_count": 3}, {"flavor_id": "g1-standard-4-8", "node_count": 1}]}
    total = result["price"]["total_price"]["price_per_month"]
    assert result["changed"] is False and total == round(0.024 * 720 * 3 + 0.1 * 50 * 3 + 0.048 * 720 + 0.1 * 50, 2)
    over = harness.run(server, price_preview, dict(args, max_price_per_month=100))
    assert over["failed"] is True and "total_price_per_month %s USD is above max_price_per_month 100" % total in over["msg"]
    mixed = harness.run(server, price_preview, dict(args, flavor="g1-standard-1-2"))
    assert mixed["failed"] is True and "flavor: only for resource instance" in mixed["msg"]
