#!/usr/bin/env python3
"""Builds the AdmissionReview that kube-apiserver would send for `kubectl apply` of a JobSet.

usage: make_review.py RAW.json DEFAULTED.json validate|mutate > request.json

RAW.json is the object as written in the manifest; DEFAULTED.json the same object after the
CRD structural defaults and the mutating webhook's defaults (what a validating webhook sees on
CREATE; pass RAW.json again if unavailable). Besides the object it adds what the API server adds
before calling webhooks: the namespace, kubectl's last-applied-configuration annotation and
the managedFields entry of a client-side apply, and (validating stage only, after rest.BeforeCreate)
uid, creationTimestamp and generation. The output is compact JSON, as the API server sends it.
Everything is fixed (uids, times), so the same input gives the same bytes.
"""
import json
import sys

NAMESPACE = "ml-training"
TIME = "2026-01-15T09:30:00Z"


def fields_v1(value):
    """A FieldsV1 set for a JSON value: maps become f:<key>, lists of named maps k:{"name":..}."""
    if isinstance(value, dict):
        return {"f:" + k: fields_v1(v) for k, v in value.items()}
    if isinstance(value, list) and value and all(isinstance(x, dict) and "name" in x for x in value):
        out = {}
        for item in value:
            key = "k:" + json.dumps({"name": item["name"]}, separators=(",", ":"))
            entry = {".": {}}
            entry.update(fields_v1(item))
            out[key] = entry
        return out
    return {}  # scalars and atomic lists


def main():
    raw = json.load(open(sys.argv[1]))
    obj = json.load(open(sys.argv[2]))
    stage = sys.argv[3] if len(sys.argv) > 3 else "validate"
    if stage == "mutate":
        obj = json.loads(json.dumps(raw))  # the mutating webhook sees the object before its defaults
    applied = json.loads(json.dumps(raw))
    applied.setdefault("metadata", {})["namespace"] = NAMESPACE
    # kubectl stores json.Marshal of the applied object: compact, keys sorted, newline-terminated.
    last_applied = json.dumps(applied, separators=(",", ":"), sort_keys=True) + "\n"

    md = obj.setdefault("metadata", {})
    md["namespace"] = NAMESPACE
    annotations = md.setdefault("annotations", {})
    annotations["kubectl.kubernetes.io/last-applied-configuration"] = last_applied
    managed = {k: v for k, v in applied.items() if k not in ("apiVersion", "kind", "metadata")}
    managed_fields = fields_v1(managed)
    managed_fields["f:metadata"] = {"f:annotations": {
        ".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {}}}
    if stage == "validate":
        md["uid"] = "b3f6d7a2-1c4e-4f0a-9d3b-7e2a5c8f1d90"
        md["creationTimestamp"] = TIME
        md["generation"] = 1
    md["managedFields"] = [{
        "manager": "kubectl-client-side-apply",
        "operation": "Update",
        "apiVersion": obj.get("apiVersion", "jobset.x-k8s.io/v1alpha2"),
        "time": TIME,
        "fieldsType": "FieldsV1",
        "fieldsV1": managed_fields,
    }]

    gvk = {"group": "jobset.x-k8s.io", "version": "v1alpha2", "kind": "JobSet"}
    gvr = {"group": "jobset.x-k8s.io", "version": "v1alpha2", "resource": "jobsets"}
    review = {
        "kind": "AdmissionReview",
        "apiVersion": "admission.k8s.io/v1",
        "request": {
            "uid": "0d4e3c1a-5b7f-4c2e-9a61-3f8b2d7e9c10",
            "kind": gvk,
            "resource": gvr,
            "requestKind": gvk,
            "requestResource": gvr,
            "name": md.get("name", ""),
            "namespace": NAMESPACE,
            "operation": "CREATE",
            "userInfo": {"username": "kubernetes-admin",
                         "groups": ["kubeadm:cluster-admins", "system:authenticated"]},
            "object": obj,
            "oldObject": None,
            "dryRun": False,
            "options": {"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1",
                        "fieldManager": "kubectl-client-side-apply", "fieldValidation": "Strict"},
        },
    }
    sys.stdout.write(json.dumps(review, separators=(",", ":")))


if __name__ == "__main__":
    main()
