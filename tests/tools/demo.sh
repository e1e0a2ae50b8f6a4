#!/usr/bin/env bash
# Start the simulator on 127.0.0.1 (ephemeral port), run examples/demo.yml against it, stop it.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p tests/output
url_file=tests/output/demo-sim.url
rm -f "$url_file"
.venv/bin/python -m simulator --url-file "$url_file" > tests/output/demo-sim.log 2>&1 &
sim_pid=$!
trap 'kill "$sim_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  [ -s "$url_file" ] && break
  sleep 0.1
done
url=$(cat "$url_file")
echo "Simulator listening on $url"
export GCORE_API_URL="$url" GCORE_API_KEY="sim-test-key-7c1e0d" GCORE_CLOUD_PROJECT_ID=1 GCORE_CLOUD_REGION_ID=76
playbook() {
  .venv/bin/ansible-playbook -i localhost, -c local -e "ansible_python_interpreter=$PWD/.venv/bin/python" "$@"
}
playbook -e "sim_url=$url" examples/demo.yml
echo
echo "Preview (--check --diff: nothing is sent but the listing) what examples/waap_firewall_rules.yml would do to"
echo "WAAP domain 1006 with state overridden: its two rules from the demo deleted, the example's two created."
playbook --check --diff -e waap_domain_id=1006 -e rules_state=overridden examples/waap_firewall_rules.yml
