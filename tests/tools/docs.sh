#!/usr/bin/env bash
# Build the collection's HTML docs site offline: antsibull-docs renders the module docs and the guides of
# docs/docsite/ to RST, Sphinx renders the HTML. No network: intersphinx is switched off, and the few labels
# of the Ansible documentation that antsibull-docs links to are resolved to plain links by conf.py.
# Warnings fail the build (sphinx-build -W, nitpicky). Output: $GCORE_DOCS_DIR (default .build/docs)/build/html.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$root/.venv/bin
dest=${GCORE_DOCS_DIR:-$root/.build/docs}
collections=${GCORE_COLLECTIONS_PATH:-$root/.build/collections}

# The collection must be importable under its name: .build/collections/ansible_collections/gcore/platform -> repo root.
if [ ! -e "$collections/ansible_collections/gcore/platform" ]; then
  mkdir -p "$collections/ansible_collections/gcore"
  ln -sfn "$root" "$collections/ansible_collections/gcore/platform"
fi
export ANSIBLE_COLLECTIONS_PATH=$collections
export PATH=$bin:$PATH            # antsibull-docs runs `ansible-doc` and `ansible`
export ANSIBLE_NOCOLOR=1

rm -rf "$dest"
mkdir -p "$dest"
"$bin/antsibull-docs" --config-file "$root/docs/docsite/antsibull-docs.cfg" sphinx-init --use-current --squash-hierarchy --fail-on-error \
  --no-add-antsibull-docs-version \
  --project "gcore.platform" --copyright "gcore.platform contributors" \
  --title "gcore.platform — Ansible collection for Gcore" \
  --dest-dir "$dest" gcore.platform >/dev/null

# Offline: no intersphinx. antsibull-docs' templates refer to a few labels of the Ansible docs; link them directly.
cat >> "$dest/conf.py" <<'PY'

# ---- gcore.platform: offline build (appended by tests/tools/docs.sh) ----
extensions = [name for name in extensions if name != 'sphinx.ext.intersphinx']
intersphinx_mapping = {}
ANSIBLE_DOCS = 'https://docs.ansible.com/projects/ansible/latest/'
ANSIBLE_DOCS_LABELS = {
    'ansible_configuration_settings': ('reference_appendices/config.html', 'Ansible Configuration Settings'),
    'common_return_values': ('reference_appendices/common_return_values.html', 'Return Values'),
    'callback_plugins': ('plugins/callback.html', 'Callback plugins'),  # the page of a callback plugin (plan)
}


def _resolve_ansible_docs_label(app, env, node, contnode):
    """Resolve labels of the Ansible documentation without intersphinx; every other missing label still warns."""
    from docutils import nodes
    name = node.get('reftarget') or ''
    if node.get('reftype') == 'envvar' and name.startswith('ANSIBLE_'):  # ansible-core's settings (inventory_cache fragment)
        reference = nodes.reference('', '', internal=False, refuri=ANSIBLE_DOCS + 'reference_appendices/config.html#envvar-' + name)
        reference += contnode
        return reference
    target = ANSIBLE_DOCS_LABELS.get(name)
    if node.get('reftype') != 'ref' or target is None:
        return None
    path, title = target
    reference = nodes.reference('', '', internal=False, refuri=ANSIBLE_DOCS + path)
    reference += contnode if node.get('refexplicit') else nodes.Text(title)
    return reference


def setup(app):
    app.connect('missing-reference', _resolve_ansible_docs_label)
PY

mkdir -p "$dest/rst"
chmod og-w "$dest/rst"
"$bin/antsibull-docs" --config-file "$dest/antsibull-docs.cfg" collection --use-current --squash-hierarchy \
  --fail-on-error --cleanup everything --dest-dir "$dest/rst" gcore.platform
"$bin/sphinx-build" -M html "$dest/rst" "$dest/build" -c "$dest" -W --keep-going -q
echo "Docs site: $dest/build/html/index.html"
