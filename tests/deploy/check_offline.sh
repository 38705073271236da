#!/usr/bin/env bash
# Offline checks of the deployment files (ctest deploy.offline; no Docker,
# no cluster): yamllint on every YAML file, promtool on the Prometheus
# configuration, alert rules and their unit tests, `kubectl kustomize` of
# every overlay, then check_manifests.mjs (Compose schema, Kubernetes
# schemas, each service's ports against its flags).
#   tests/deploy/check_offline.sh [repo root] [build dir]
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${2:-$root/build/asan}
cd "$root"
for tool in yamllint promtool kubectl node; do
  command -v "$tool" >/dev/null || { echo "check_offline: $tool is missing (scripts/deps installs it)" >&2; exit 1; }
done
[ -d tests/deploy/node_modules ] || { echo "check_offline: run scripts/deps (npm packages of tests/deploy)" >&2; exit 1; }
work=$(mktemp -d /tmp/draughts-deploy.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== yamllint"
mapfile -t yaml_files < <(git ls-files --cached --others --exclude-standard '*.yml' '*.yaml' | grep -v node_modules)
yamllint -c tests/deploy/yamllint.yaml --strict "${yaml_files[@]}"
echo "${#yaml_files[@]} YAML files clean"

echo "== promtool"
promtool check config deploy/prometheus/prometheus.yml
promtool check rules deploy/prometheus/rules/*.yml
promtool test rules deploy/prometheus/tests/*.yml

echo "== grafana dashboards"
for dashboard in deploy/grafana/dashboards/*.json; do
  node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$dashboard"
done
echo "$(ls deploy/grafana/dashboards/*.json | wc -l) dashboards parse"

echo "== kubectl kustomize"
rendered=()
for overlay in deploy/k8s/overlays/*/; do
  name=$(basename "$overlay")
  kubectl kustomize "$overlay" >"$work/$name.yaml"
  rendered+=("$work/$name.yaml")
  echo "$name: $(grep -c '^kind:' "$work/$name.yaml") objects"
done

echo "== schemas and ports"
node tests/deploy/check_manifests.mjs "$root" "$build" "${rendered[@]}"
