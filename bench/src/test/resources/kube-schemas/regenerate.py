#!/usr/bin/env python3
"""Writes the JSON schemas kubeconform checks `protobench export` against (see README.md here).

Usage: regenerate.py SWAGGER_JSON OUT_DIR

SWAGGER_JSON is api/openapi-spec/swagger.json of a Kubernetes release (in the Go module
k8s.io/kubernetes of that version): every schema here comes from it.

Each schema is stand-alone (its `definitions` hold every type it reaches, and only
those) and strict as kubeconform's own schemas are: an object with named properties
takes no others. Descriptions are dropped. int-or-string and quantities accept a number
as well as a string, as the API server does. Python 3 standard library only.
"""
import copy
import json
import os
import sys

# kubeconform's file name for a kind: {{ .ResourceKind }}{{ .KindSuffix }}.json
SCHEMAS = {
    "configmap-v1.json": "io.k8s.api.core.v1.ConfigMap",
    "service-v1.json": "io.k8s.api.core.v1.Service",
    "deployment-apps-v1.json": "io.k8s.api.apps.v1.Deployment",
    "job-batch-v1.json": "io.k8s.api.batch.v1.Job",
}
REF = "#/definitions/"
# Written as strings or numbers in YAML (port: 8080 or port: http; cpu: 2 or cpu: "500m").
EITHER = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {"oneOf": [{"type": "string"}, {"type": "number"}]},
}


def refs(node):
    """Names of the definitions that [node] refers to, directly."""
    if isinstance(node, dict):
        found = {node["$ref"][len(REF):]} if isinstance(node.get("$ref"), str) else set()
        for value in node.values():
            found |= refs(value)
        return found
    if isinstance(node, list):
        return set().union(*map(refs, node)) if node else set()
    return set()


def reachable(root, definitions):
    seen, todo = set(), [root]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in definitions:
            sys.exit("no definition %s" % name)
        seen.add(name)
        todo.extend(refs(definitions[name]))
    return seen


def strict(schema):
    """The schema without descriptions and extensions, every object with properties closed to others."""
    if not isinstance(schema, dict):
        return schema
    out = {k: v for k, v in schema.items() if k != "description" and not k.startswith("x-")}
    if "properties" in out:
        out["properties"] = {name: strict(s) for name, s in out["properties"].items()}
        out.setdefault("additionalProperties", False)
    for key in ("items", "additionalProperties"):
        if isinstance(out.get(key), dict):
            out[key] = strict(out[key])
    for key in ("allOf", "anyOf", "oneOf"):
        if key in out:
            out[key] = [strict(s) for s in out[key]]
    return out


def schema_for(root, definitions):
    names = sorted(reachable(root, definitions) - {root})
    own = {name: copy.deepcopy(EITHER.get(name) or strict(definitions[name])) for name in names}
    schema = {"$schema": "http://json-schema.org/draft-04/schema#"}
    schema.update(strict(definitions[root]))
    if own:
        schema["definitions"] = own
    return schema


def main(swagger_path, out_dir):
    with open(swagger_path) as f:
        definitions = json.load(f)["definitions"]
    os.makedirs(out_dir, exist_ok=True)
    for file_name, root in SCHEMAS.items():
        with open(os.path.join(out_dir, file_name), "w") as f:
            json.dump(schema_for(root, definitions), f, sort_keys=True, indent=1)
            f.write("\n")
        print("wrote %s (%s)" % (file_name, root))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
