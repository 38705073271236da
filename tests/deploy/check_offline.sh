#!/usr/bin/env bash
# Offline checks of the deployment files (ctest deploy.offline; no Docker,
# no cluster): yamllint on every YAML file, promtool on the Prometheus
# configuration, alert rules and their unit tests, `kubectl kustomize` of
# every overlay, then check_manifests.mjs (Compose schema, Kubernetes
# schemas, each service's ports against its flags).
#   tests/deploy/check_offline.sh [repo root] [build dir]
# KUBECTL picks the kubectl (default: the one on PATH). The overlays use only
# what Debian's kubectl 1.20 (kustomize v2.0.3) knows as well; to prove a
# recent one renders the same objects, name a second kubectl:
#   KUBECTL_COMPARE=/tmp/k120/usr/bin/kubectl tests/deploy/check_offline.sh
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
build=${2:-$root/build/asan}
cd "$root"
kubectl=${KUBECTL:-kubectl}
for tool in yamllint promtool "$kubectl" node; do
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

# Recent kustomize warns that the fields old kustomize needs are deprecated;
# only other messages are shown.
render() {
  local kubectl=$1 overlay=$2 out=$3
  if ! "$kubectl" kustomize "$overlay" >"$out" 2>"$out.err"; then
    cat "$out.err" >&2
    return 1
  fi
  grep -v "^# Warning: '[A-Za-z0-9]*' is deprecated" "$out.err" | grep -v '^$' >&2 || true
}

echo "== kubectl kustomize ($("$kubectl" version --client 2>/dev/null | head -1 | sed -E 's/.*GitVersion:"([^"]+)".*/\1/'))"
rendered=()
for overlay in deploy/k8s/overlays/*/; do
  name=$(basename "$overlay")
  render "$kubectl" "$overlay" "$work/$name.yaml"
  rendered+=("$work/$name.yaml")
  echo "$name: $(grep -c '^kind:' "$work/$name.yaml") objects"
  if [ -n "${KUBECTL_COMPARE:-}" ]; then
    render "$KUBECTL_COMPARE" "$overlay" "$work/$name.compare.yaml"
    node tests/deploy/compare_renders.mjs "$work/$name.yaml" "$work/$name.compare.yaml"
  fi
done

echo "== schemas and ports"
node tests/deploy/check_manifests.mjs "$root" "$build" "${rendered[@]}"
