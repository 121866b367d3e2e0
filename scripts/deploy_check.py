#!/usr/bin/env python3
"""Checks the deployment files under deploy/ offline, as scripts/deploy-check.sh runs it.

- deploy/kubernetes/*.yaml against the Kubernetes schemas (kubernetes-validate, strict: an unknown
  field is an error), then what the schemas cannot say: every environment variable and Secret key
  is a setting Parlance reads; the ConfigMap's parlance.toml loads in the real binary; the probes ask
  routes of the OpenAPI document on ports the container declares, and those ports are the ones its
  API_PORT and PORT say; the grace period covers the preStop pause and the server's drain.
- deploy/compose.yaml against the Compose Specification's JSON schema, then: every service a
  `depends_on` names exists and has a healthcheck where it is waited for, every named volume is
  declared, every file mounted exists, every URL a Parlance replica is given names a service of the
  file, the variables are settings, and the stop grace period covers the drain.

Usage: deploy_check.py PARLANCE_BIN COMPOSE_SCHEMA
"""

import json
import os
import re
import subprocess
import sys
import tempfile
from urllib.parse import urlparse

import jsonschema
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "deploy")
problems = []


def problem(where, what):
    problems.append(f"{where}: {what}")


def settings_variables():
    """The environment variables Parlance reads: the settings reference's column, and the few
    OpenTelemetry variables the exporter reads besides its settings."""
    names = {"OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES"}
    with open(os.path.join(ROOT, "docs/src/reference/settings.md")) as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 3 and cells[2].startswith("`") and cells[2].endswith("`"):
                names.add(cells[2].strip("`"))
    # The configuration file's own variable, which the command line's reference names.
    with open(os.path.join(ROOT, "docs/src/reference/cli.md")) as f:
        names.update(re.findall(r"\$([A-Z][A-Z_]+)", f.read()))
    for path in ("host/src/telemetry/export.rs", "host/src/telemetry/otlp.rs"):
        with open(os.path.join(ROOT, path)) as f:
            names.update(re.findall(r'"(OTEL_[A-Z_]+)"', f.read()))
    return names


def drain_seconds():
    with open(os.path.join(ROOT, "host/src/http/listener.rs")) as f:
        found = re.search(r"pub const DRAIN: Duration = Duration::from_secs\((\d+)\);", f.read())
    if not found:
        sys.exit("host/src/http/listener.rs: no `pub const DRAIN: Duration = Duration::from_secs(N);`")
    return int(found.group(1))


def api_paths():
    with open(os.path.join(ROOT, "docs/src/reference/openapi.json")) as f:
        return set(json.load(f)["paths"])


def seconds(text):
    found = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", str(text))
    if not found or not any(found.groups()):
        return None
    return int(found.group(1) or 0) * 60 + int(found.group(2) or 0)


def config_loads(where, toml_text, binary):
    """Loads `toml_text` as the binary loads its configuration: `plugins list` reads the whole file
    through every section's checks, and opens no store."""
    with tempfile.TemporaryDirectory() as home:
        path = os.path.join(home, "parlance.toml")
        with open(path, "w") as f:
            f.write(toml_text)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLANCE_", "OTEL_"))}
        env["HOME"] = home
        run = subprocess.run([binary, "plugins", "list", "--config", path], capture_output=True, text=True,
                             env=env, cwd=home, timeout=300)
        if run.returncode != 0:
            problem(where, f"parlance.toml does not load: {run.stderr.strip()[-800:]}")


def check_kubernetes(binary, variables, drain, paths):
    files = sorted(os.path.join(DEPLOY, "kubernetes", f) for f in os.listdir(os.path.join(DEPLOY, "kubernetes"))
                   if f.endswith((".yaml", ".yml")))
    if not files:
        problem("deploy/kubernetes", "no manifest")
    validate = subprocess.run(["kubernetes-validate", "--strict", "--quiet", *files], capture_output=True, text=True)
    if validate.returncode != 0:
        problem("kubernetes-validate", (validate.stdout + validate.stderr).strip())
    resources = []
    for path in files:
        with open(path) as f:
            resources += [(os.path.relpath(path, ROOT), doc) for doc in yaml.safe_load_all(f) if doc]
    by_kind = {}
    for where, doc in resources:
        by_kind.setdefault(doc["kind"], []).append((where, doc))
    for kind in ("Deployment", "Service", "ConfigMap", "Secret", "PodDisruptionBudget"):
        if kind not in by_kind:
            problem("deploy/kubernetes", f"no {kind}")
    for where, secret in by_kind.get("Secret", []):
        for key in {**secret.get("stringData", {}), **secret.get("data", {})}:
            if key not in variables:
                problem(where, f"Secret {secret['metadata']['name']}: {key} is not a variable Parlance reads")
    for where, config in by_kind.get("ConfigMap", []):
        if "parlance.toml" in config.get("data", {}):
            config_loads(f"{where} (ConfigMap {config['metadata']['name']})", config["data"]["parlance.toml"], binary)
    for where, deployment in by_kind.get("Deployment", []):
        pod = deployment["spec"]["template"]["spec"]
        for container in pod["containers"]:
            env = {e["name"]: e.get("value") for e in container.get("env", [])}
            for name in env:
                if name not in variables:
                    problem(where, f"container {container['name']}: {name} is not a variable Parlance reads")
            ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
            expected = {int(env.get("API_PORT") or 8000), int(env.get("PORT") or 5000)}
            if set(ports.values()) != expected:
                problem(where, f"container ports {sorted(ports.values())}, but API_PORT and PORT say {sorted(expected)}")
            for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                get = container.get(probe, {}).get("httpGet")
                if not get:
                    problem(where, f"container {container['name']}: no HTTP {probe}")
                    continue
                if get["path"] not in paths:
                    problem(where, f"{probe}: {get['path']} is not a route of the OpenAPI document")
                if get["port"] not in ports and get["port"] not in ports.values():
                    problem(where, f"{probe}: port {get['port']} is not a port of the container")
            pause = container.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
            grace = pod.get("terminationGracePeriodSeconds", 30)
            if grace < pause + drain:
                problem(where, f"terminationGracePeriodSeconds {grace} < the preStop pause {pause} s + the drain {drain} s")
            mounts = {m["name"] for m in container.get("volumeMounts", [])}
            volumes = {v["name"] for v in pod.get("volumes", [])}
            if mounts - volumes:
                problem(where, f"mounts of undeclared volumes: {sorted(mounts - volumes)}")
            for ref in container.get("envFrom", []):
                name = ref.get("secretRef", {}).get("name") or ref.get("configMapRef", {}).get("name")
                if not any(d["metadata"]["name"] == name for _, d in by_kind.get("Secret", []) + by_kind.get("ConfigMap", [])):
                    problem(where, f"envFrom names {name}, which no manifest declares")
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        for kind in ("Service", "PodDisruptionBudget"):
            for other_where, other in by_kind.get(kind, []):
                selector = other["spec"]["selector"]
                selector = selector.get("matchLabels", selector)
                if any(labels.get(k) != v for k, v in selector.items()):
                    problem(other_where, f"{kind} {other['metadata']['name']} selects no pod of the Deployment")
    return by_kind


def check_compose(schema_path, variables, drain, paths):
    where = "deploy/compose.yaml"
    with open(os.path.join(DEPLOY, "compose.yaml")) as f:
        compose = yaml.safe_load(f)
    with open(schema_path) as f:
        schema = json.load(f)
    for error in jsonschema.Draft201909Validator(schema).iter_errors(compose):
        problem(where, f"{'/'.join(map(str, error.absolute_path))}: {error.message}")
    services = compose.get("services", {})
    declared = set(compose.get("volumes") or {})
    for name, service in services.items():
        needs = service.get("depends_on", {})
        for other, condition in (needs.items() if isinstance(needs, dict) else ((n, {}) for n in needs)):
            if other not in services:
                problem(where, f"{name} depends on {other}, which is not a service")
            elif condition.get("condition") == "service_healthy" and "healthcheck" not in services[other]:
                problem(where, f"{name} waits for {other} to be healthy, but it has no healthcheck")
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith((".", "/")):
                if not os.path.exists(os.path.join(DEPLOY, source)):
                    problem(where, f"{name} mounts {source}, which does not exist")
            elif source not in declared:
                problem(where, f"{name} mounts the volume {source}, which is not declared")
        if service.get("image", "").endswith("parlance:latest"):
            environment = service.get("environment", {})
            for variable, value in environment.items():
                if variable not in variables:
                    problem(where, f"{name}: {variable} is not a variable Parlance reads")
                if isinstance(value, str) and "://" in value and "${" not in value:
                    host = urlparse(value).hostname
                    if host not in services:
                        problem(where, f"{name}: {variable} points at {host}, which is not a service")
            grace = seconds(service.get("stop_grace_period", "10s"))
            if grace is None or grace < drain:
                problem(where, f"{name}: stop_grace_period {service.get('stop_grace_period')} is shorter than the drain ({drain} s)")
            if not service.get("read_only"):
                problem(where, f"{name}: the root file system is writable")


def main():
    # The binary runs from a temporary folder: a relative path would be looked for there.
    binary, schema = os.path.abspath(sys.argv[1]), sys.argv[2]
    variables, drain, paths = settings_variables(), drain_seconds(), api_paths()
    check_kubernetes(binary, variables, drain, paths)
    check_compose(schema, variables, drain, paths)
    if problems:
        print("deploy-check: the deployment files have problems:", *problems, sep="\n  ", file=sys.stderr)
        sys.exit(1)
    print("deploy-check: deploy/kubernetes and deploy/compose.yaml are valid and wired", file=sys.stderr)


if __name__ == "__main__":
    main()
