# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""AWX / Automation Platform readiness.

- The custom credential type (docs/awx/gcore_credential_type.yml) is what the controller accepts, and its
  injectors give exactly the GCORE_* variables the modules read.
- The demo playbook runs under ansible-runner (what AWX runs every job with) against the simulator, with
  nothing but the environment that a credential of that type injects, handed over in memory as AWX does
  (``suppress_env_files``: no ``env/envvars`` holds the key), the collection installed from its tarball, as in an
  execution environment, and the plan callback enabled by the project's ansible.cfg (its summary in the job output).
- ansible-builder turns the EE definition (docs/awx/execution-environment.yml) into a build context, and
  the collection's meta/execution-environment.yml gives the image its Python dependencies.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import jinja2
import jinja2.meta
import jinja2.sandbox
import pytest
import yaml

from gcore_packaging import BIN, ROOT, explain, galaxy, installed, run, tarball, tool_env  # noqa: F401  pylint: disable=unused-import

AWX = ROOT / "docs" / "awx"
# What the controller accepts in a credential type's input fields (awx/main/fields.py CredentialTypeInputField).
FIELD_KEYS = {"id", "label", "type", "help_text", "secret", "multiline", "format", "choices", "default", "ask_at_runtime"}
ENV_NAME = re.compile(r"^[a-zA-Z_]+[a-zA-Z0-9_]*$")
INJECTED = {"GCORE_API_KEY", "GCORE_API_URL", "GCORE_CLOUD_PROJECT_ID", "GCORE_CLOUD_REGION_ID"}


# The job as AWX starts it (the guide's "Try it without AWX" says the same): ansible-runner's Python interface, the
# credential's environment given in memory (read here from standard input) with suppress_env_files, so that
# ansible-runner writes it to no env/envvars file.
RUNNER = """
import json, sys
import ansible_runner
job = json.load(sys.stdin)
result = ansible_runner.run(private_data_dir=job["dir"], playbook=job["playbook"], ident=job["ident"], envvars=job["envvars"],
                            suppress_env_files=True, quiet=True)
sys.exit(0 if result.status == "successful" else 1)
"""


def load_yaml(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@pytest.fixture(scope="module")
def credential_type():
    return load_yaml(AWX / "gcore_credential_type.yml")


def awx_inject(credential_type, inputs):
    """The environment AWX gives a job for a credential with these inputs.

    As the controller does it: only inputs with a value are in the template namespace, missing booleans are
    false, and every `env` injector is rendered with an immutable sandboxed Jinja environment (so a field left
    empty renders as an empty string).
    """
    namespace = {name: value for name, value in inputs.items() if value not in (None, "")}
    for field in credential_type["inputs"]["fields"]:
        if field.get("type") == "boolean" and field["id"] not in inputs:
            namespace[field["id"]] = False
    sandbox = jinja2.sandbox.ImmutableSandboxedEnvironment()
    return {name: sandbox.from_string(template).render(**namespace)
            for name, template in credential_type["injectors"].get("env", {}).items()}


def test_credential_type_is_a_valid_custom_type(credential_type):
    assert set(credential_type) == {"name", "description", "kind", "inputs", "injectors"}
    assert credential_type["kind"] in ("cloud", "net"), "custom credential types must be of kind cloud or net"
    fields = credential_type["inputs"]["fields"]
    ids = [field["id"] for field in fields]
    assert len(ids) == len(set(ids))
    for field in fields:
        assert set(field) <= FIELD_KEYS, field
        assert field["type"] in ("string", "boolean") and field["label"] and field["help_text"], field
    assert set(credential_type["inputs"]["required"]) <= set(ids)
    secret = {field["id"] for field in fields if field.get("secret")}
    assert secret == {"api_key"}, "the API key, and only it, is a secret"
    assert "api_key" in credential_type["inputs"]["required"]
    assert set(credential_type["injectors"]) == {"env"}
    env = credential_type["injectors"]["env"]
    assert set(env) == INJECTED
    sandbox = jinja2.sandbox.ImmutableSandboxedEnvironment()
    for name, template in env.items():
        assert ENV_NAME.match(name)
        assert jinja2.meta.find_undeclared_variables(sandbox.parse(template)) <= set(ids), template


def test_injected_variables_are_the_ones_the_modules_read(credential_type):
    fragment = (ROOT / "plugins" / "doc_fragments" / "gcore.py").read_text(encoding="utf-8")
    base = (ROOT / "plugins" / "module_utils" / "_checks.py").read_text(encoding="utf-8")  # the common options and their fallbacks
    for name in credential_type["injectors"]["env"]:
        assert "E(%s)" % name in fragment, "%s is not documented as a module fallback" % name
        assert '"%s"' % name in base, "%s is not read by the common options (_checks)" % name


def test_injectors_render_as_awx_renders_them(credential_type):
    full = awx_inject(credential_type, {"api_key": "12345$abc", "api_url": "https://api.example.test", "project_id": "1234", "region_id": "76"})
    assert full == {"GCORE_API_KEY": "12345$abc", "GCORE_API_URL": "https://api.example.test",
                    "GCORE_CLOUD_PROJECT_ID": "1234", "GCORE_CLOUD_REGION_ID": "76"}
    key_only = awx_inject(credential_type, {"api_key": "12345$abc"})
    assert key_only == {"GCORE_API_KEY": "12345$abc", "GCORE_API_URL": "https://api.gcore.com",
                        "GCORE_CLOUD_PROJECT_ID": "", "GCORE_CLOUD_REGION_ID": ""}


def test_demo_runs_under_ansible_runner_with_the_credential_environment(credential_type, installed, tmp_path):
    """examples/demo.yml as an AWX job runs it (`make demo` runs the same play): what it built, and what it shows."""
    from simulator.core import Simulator  # tests/ is on sys.path (conftest)

    sim = Simulator()
    url = sim.start()
    try:
        injected = awx_inject(credential_type, {"api_key": sim.api_key, "api_url": url, "project_id": "1", "region_id": "76"})
        job = tmp_path / "job"
        (job / "env").mkdir(parents=True)
        (job / "inventory").mkdir()
        shutil.copytree(ROOT / "examples", job / "project")
        # The demo's own variable (not a credential): where the simulator's control API is.
        (job / "env" / "extravars").write_text(yaml.safe_dump({"sim_url": url}), encoding="utf-8")
        # The inventory of the AWX guide: localhost, local connection, the Python that runs ansible-playbook.
        (job / "inventory" / "hosts").write_text(
            'localhost ansible_connection=local ansible_python_interpreter="{{ ansible_playbook_python }}"\n', encoding="utf-8")
        # The project's ansible.cfg enables the plan callback, as the plan guide says.
        (job / "project" / "ansible.cfg").write_text("[defaults]\ncallbacks_enabled = gcore.platform.plan\n", encoding="utf-8")
        # The collection as an execution environment has it: installed from the tarball, the only one on the path.
        env = tool_env(str(installed), ANSIBLE_LOCAL_TEMP=str(tmp_path / "tmp"), ANSIBLE_HOME=str(tmp_path / "home"))
        for name in list(env):
            if name.startswith("GCORE_"):
                del env[name]
        completed = subprocess.run([str(BIN / "python"), "-c", RUNNER], env=env, capture_output=True, text=True, check=False,
                                   timeout=600, input=json.dumps({"dir": str(job), "playbook": "demo.yml", "ident": "demo",
                                                                  "envvars": injected}))
        artifacts = job / "artifacts" / "demo"
        stdout = (artifacts / "stdout").read_text(encoding="utf-8") if (artifacts / "stdout").exists() else ""
        assert completed.returncode == 0, explain(completed) + stdout[-6000:]
        assert (artifacts / "status").read_text(encoding="utf-8").strip() == "successful"
        assert (artifacts / "rc").read_text(encoding="utf-8").strip() == "0"
        assert "failed=0" in stdout and "unreachable=0" in stdout
        # The key reached the modules only through the environment, and never the job's output or events.
        served = [entry for entry in sim.log if not entry["path"].startswith("/_sim")]
        assert served, "the demo sent no API request"
        assert all(entry["authorization"] == "apikey ***" for entry in served), "a request lacked the injected key"
        events = "".join(path.read_text(encoding="utf-8") for path in (artifacts / "job_events").glob("*.json"))
        for text in (stdout, events, completed.stdout, completed.stderr):
            assert sim.api_key not in text, "the API key appears in the job output"
        # No file of the job holds the key (suppress_env_files: no env/envvars), but the one where ansible-runner
        # records the environment it started ansible-playbook with (artifacts/<ident>/command, the guide says so).
        assert not (job / "env" / "envvars").exists()
        holding = sorted(str(path.relative_to(job)) for path in job.rglob("*")
                         if path.is_file() and sim.api_key in path.read_text(encoding="utf-8", errors="replace"))
        assert holding == ["artifacts/demo/command"], holding
        # The plan callback's summary, in the job output after the recap (the demo's modules count; its debug tasks not).
        assert re.search(r"GCORE PLATFORM PLAN \*+\nlocalhost : \d+ created, \d+ changed, 0 replaced, \d+ deleted\n", stdout), \
            stdout[-3000:]
        assert any(json.loads(path.read_text(encoding="utf-8")).get("event") == "playbook_on_stats"
                   for path in (artifacts / "job_events").glob("*.json"))
        # What the demo built and what its output shows (the one run of examples/demo.yml in `make test`).
        rules = sorted(rule["name"] for rule in sim.firewall_rules if rule["domain"]["id"] == 1006)
        assert rules == ["Allow the office", "Block a scanner range"], rules
        assert len(sim.requests("POST", r"^/waap/v1/domains/1006/firewall-rules$")) == 2
        assert len(sim.requests("PATCH", r"^/waap/v2/domains/1006/firewall-rules/")) == 2  # disable, then enable again
        assert "The same again: changed=False; domain 1006 holds 2 firewall rules" in stdout, stdout[-6000:]
        assert "Callback dispatch" not in stdout, stdout[-6000:]
        section = stdout.split("TASK [Rule sets - declare two firewall rules", 1)[1].split("TASK [", 1)[0]
        for name in rules:  # the rule set's diff names each rule
            assert name in section, section
    finally:
        sim.stop()


def test_ansible_builder_creates_a_context_from_the_ee_definition(tmp_path):
    """The steps of the AWX guide: copy the definition, build the tarball beside it, `ansible-builder create`.
    Then the galaxy stage of the Containerfile is replayed offline (install from the context's requirements.yml)
    and the context's own introspection finds the collection's Python dependencies."""
    definition = load_yaml(AWX / "execution-environment.yml")
    info = galaxy()
    tarball_name = "%s-%s-%s.tar.gz" % (info["namespace"], info["name"], info["version"])
    assert definition["version"] == 3
    assert definition["additional_build_files"] == [{"src": tarball_name, "dest": "collections"}], \
        "the EE definition must name the tarball of galaxy.yml's version"
    runtime = load_yaml(ROOT / "meta" / "runtime.yml")
    assert definition["dependencies"]["ansible_core"]["package_pip"] == "ansible-core" + runtime["requires_ansible"].replace('"', "")

    work = tmp_path / "gcore-ee"
    work.mkdir()
    shutil.copy(AWX / "execution-environment.yml", work)
    built = run([BIN / "ansible-galaxy", "collection", "build", "--output-path", work, ROOT])
    assert built.returncode == 0, explain(built)
    created = run([BIN / "ansible-builder", "create", "--file", "execution-environment.yml", "--context", "context"], cwd=work)
    assert created.returncode == 0, explain(created)
    context = work / "context"
    containerfile = next(path for path in (context / "Containerfile", context / "Dockerfile") if path.exists())
    text = containerfile.read_text(encoding="utf-8")
    assert "ansible-galaxy collection install" in text and "-r requirements.yml" in text
    assert "ansible-core" + runtime["requires_ansible"] in text
    assert (context / "_build" / "collections" / tarball_name).is_file()
    requirements = load_yaml(context / "_build" / "requirements.yml")
    assert requirements["collections"] == [{"name": "collections/%s" % tarball_name, "type": "file"}]

    # The galaxy stage: WORKDIR /build (= context/_build), install from requirements.yml.
    image_collections = tmp_path / "usr-share-ansible-collections"
    installed = run([BIN / "ansible-galaxy", "collection", "install", "--offline", "-r", "requirements.yml",
                     "--collections-path", image_collections], cwd=context / "_build", env=tool_env(str(image_collections)))
    assert installed.returncode == 0, explain(installed)
    # The builder stage: the context's introspect.py reads each collection's meta/execution-environment.yml.
    pip_file = tmp_path / "requirements-from-collections.txt"
    introspected = run([BIN / "python", context / "_build" / "scripts" / "introspect.py", "introspect", image_collections,
                        "--write-pip", pip_file, "--write-bindep", tmp_path / "bindep.txt"])
    assert introspected.returncode == 0, explain(introspected)
    assert re.search(r"^requests>=2\.25\.0\b.*gcore\.platform", pip_file.read_text(encoding="utf-8"), re.M), pip_file.read_text()


def test_collection_ee_metadata_points_at_the_runtime_requirements(installed):
    meta = load_yaml(ROOT / "meta" / "execution-environment.yml")
    assert meta["version"] == 3 and meta["dependencies"]["python"] == "requirements.txt"
    completed = run([BIN / "ansible-builder", "introspect", "--sanitize", installed])
    assert completed.returncode == 0, explain(completed)
    data = yaml.safe_load(completed.stdout.split("\n", 1)[1])
    assert any(line.startswith("requests") for line in data["python"]), completed.stdout
    requirements = [line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    assert "requests>=2.25.0" in requirements
