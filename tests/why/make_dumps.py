#!/usr/bin/env python3
"""Writes the synthetic JobSet histories of tests/why/*.json (see README.md there).

Each dump has the shape `kubectl get jobsets.jobset.x-k8s.io,jobs.batch,pods,events -o json`
prints (kind: List). The statuses, labels, condition texts and events follow the JobSet
controller (kubernetes-sigs/jobset@08dfbdfd, pkg/controllers/failure_policy.go and
jobset_controller.go) and the Job controller's failure events; none was recorded from a cluster.
The agreement test (validation/jobset/why_test.cc) replays each one through our engine and checks
the status written here against it.

Usage: tests/why/make_dumps.py [OUT_DIR]   (default: the folder of this script)
"""
import datetime
import hashlib
import json
import os
import sys

NS = "team-a"
BASE = datetime.datetime(2026, 11, 20, 8, 0, 0, tzinfo=datetime.timezone.utc)


def ts(minutes, seconds=0):
    t = BASE + datetime.timedelta(minutes=minutes, seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def uid(*parts):
    h = hashlib.sha1("/".join(str(p) for p in parts).encode()).hexdigest()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def pod_suffix(*parts):
    h = hashlib.sha1("/".join(str(p) for p in parts).encode()).hexdigest()
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    return "".join(alphabet[int(h[i:i + 2], 16) % len(alphabet)] for i in range(0, 10, 2))


def jobset(name, rjobs, failure_policy=None, suspend=False, status=None, created=0,
           annotations=None):
    spec = {
        "replicatedJobs": [],
        "network": {"enableDNSHostnames": True, "publishNotReadyAddresses": True},
        "successPolicy": {"operator": "All"},
        "startupPolicy": {"startupPolicyOrder": "AnyOrder"},
        "suspend": suspend,
    }
    for r in rjobs:
        job_spec = {
            "parallelism": r.get("parallelism", 1),
            "completions": r.get("parallelism", 1),
            "backoffLimit": r.get("backoffLimit", 0),
            "completionMode": "Indexed",
            "template": {"spec": {"restartPolicy": "Never",
                                  "containers": [{"name": "trainer", "image": "trainer:1.4"}]}},
        }
        for k in ("podFailurePolicy", "podReplacementPolicy"):
            if k in r:
                job_spec[k] = r[k]
        spec["replicatedJobs"].append({"name": r["name"], "groupName": "default",
                                       "replicas": r["replicas"],
                                       "template": {"spec": job_spec}})
    if failure_policy is not None:
        spec["failurePolicy"] = failure_policy
    meta = {"name": name, "namespace": NS, "uid": uid("jobset", name),
            "creationTimestamp": ts(created), "generation": 1}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": meta,
            "spec": spec, "status": status or {}}


def job(js, rjob, index, replicas, attempt, created, finish=None, job_attempt=None,
        deleting=None, suspend=False, ready=1):
    name = f"{js}-{rjob}-{index}"
    labels = {
        "jobset.sigs.k8s.io/jobset-name": js,
        "jobset.sigs.k8s.io/jobset-uid": uid("jobset", js),
        "jobset.sigs.k8s.io/replicatedjob-name": rjob,
        "jobset.sigs.k8s.io/replicatedjob-replicas": str(replicas),
        "jobset.sigs.k8s.io/job-index": str(index),
        "jobset.sigs.k8s.io/restart-attempt": str(attempt),
    }
    if job_attempt is not None:
        labels["jobset.sigs.k8s.io/job-restart-attempt"] = str(job_attempt)
    meta = {"name": name, "namespace": NS, "uid": uid("job", name, attempt, job_attempt),
            "labels": labels, "creationTimestamp": ts(created),
            "ownerReferences": [{"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                                 "name": js, "uid": uid("jobset", js), "controller": True}]}
    if deleting:
        meta["deletionTimestamp"] = deleting
    status = {"startTime": ts(created)}
    if finish is None:
        status.update({"active": 0 if suspend else 1, "ready": 0 if suspend else ready})
    elif finish[0] == "Complete":
        status.update({"succeeded": 1, "completionTime": finish[1],
                       "conditions": [{"type": "SuccessCriteriaMet", "status": "True",
                                       "reason": "CompletionsReached",
                                       "message": "Reached expected number of succeeded pods",
                                       "lastTransitionTime": finish[1]},
                                      {"type": "Complete", "status": "True",
                                       "reason": "CompletionsReached",
                                       "message": "Reached expected number of succeeded pods",
                                       "lastTransitionTime": finish[1]}]})
    else:
        _, when, reason, message = finish
        status.update({"failed": 1,
                       "conditions": [{"type": "FailureTarget", "status": "True",
                                       "reason": reason, "message": message,
                                       "lastTransitionTime": when},
                                      {"type": "Failed", "status": "True", "reason": reason,
                                       "message": message, "lastTransitionTime": when}]})
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta,
            "spec": {"parallelism": 1, "completions": 1, "suspend": suspend,
                     "completionMode": "Indexed"},
            "status": status}


def pod(js, rjob, index, attempt, created, node, phase="Running", exit_code=None,
        exit_reason="Error", disruption=None, restart_count=0, last_exit=None,
        annotations=None, job_attempt=None):
    jobname = f"{js}-{rjob}-{index}"
    name = f"{jobname}-0-{pod_suffix(jobname, attempt, job_attempt)}"
    job_uid = uid("job", jobname, attempt, job_attempt)
    labels = {
        "jobset.sigs.k8s.io/jobset-name": js,
        "jobset.sigs.k8s.io/replicatedjob-name": rjob,
        "jobset.sigs.k8s.io/job-index": str(index),
        "jobset.sigs.k8s.io/restart-attempt": str(attempt),
        "batch.kubernetes.io/job-name": jobname,
        "batch.kubernetes.io/controller-uid": job_uid,
        "batch.kubernetes.io/job-completion-index": "0",
    }
    meta = {"name": name, "namespace": NS, "uid": uid("pod", name), "labels": labels,
            "creationTimestamp": ts(created),
            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": jobname,
                                 "uid": job_uid, "controller": True}]}
    if annotations:
        meta["annotations"] = annotations
    cs = {"name": "trainer", "image": "trainer:1.4", "restartCount": restart_count,
          "ready": phase == "Running"}
    if exit_code is not None:
        cs["state"] = {"terminated": {"exitCode": exit_code, "reason": exit_reason,
                                      "finishedAt": ts(created + 1)}}
    elif phase == "Succeeded":
        cs["state"] = {"terminated": {"exitCode": 0, "reason": "Completed"}}
    else:
        cs["state"] = {"running": {"startedAt": ts(created)}}
    if last_exit is not None:
        cs["lastState"] = {"terminated": {"exitCode": last_exit[0], "reason": last_exit[1],
                                          "finishedAt": last_exit[2]}}
    status = {"phase": phase, "containerStatuses": [cs]}
    if disruption:
        status["conditions"] = [{"type": "DisruptionTarget", "status": "True",
                                 "reason": disruption[0], "message": disruption[1]}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {"nodeName": node, "restartPolicy": "Never",
                     "containers": [{"name": "trainer", "image": "trainer:1.4"}]},
            "status": status}


def event(kind, name, when, reason, message, type_="Warning", source="jobset-controller",
          api="jobset.x-k8s.io/v1alpha2", obj_uid=None):
    n = f"{name}.{hashlib.sha1((name + reason + when).encode()).hexdigest()[:16]}"
    about = {"kind": kind, "namespace": NS, "name": name, "apiVersion": api}
    if obj_uid:
        about["uid"] = obj_uid
    return {"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": n, "namespace": NS},
            "involvedObject": about, "reason": reason, "message": message, "type": type_,
            "source": {"component": source}, "firstTimestamp": when, "lastTimestamp": when,
            "count": 1}


def js_event(js, when, reason, message, type_="Warning"):
    return event("JobSet", js, when, reason, message, type_, obj_uid=uid("jobset", js))


def job_failed_event(js, rjob, index, attempt, when, reason, message, job_attempt=None):
    name = f"{js}-{rjob}-{index}"
    return event("Job", name, when, reason, message, source="job-controller", api="batch/v1",
                 obj_uid=uid("job", name, attempt, job_attempt))


def rjs(name, ready=0, succeeded=0, failed=0, active=0, suspended=0, **extra):
    d = {"name": name, "ready": ready, "succeeded": succeeded, "failed": failed,
         "active": active, "suspended": suspended}
    d.update(extra)
    return d


def cond(type_, status, reason, message, when):
    return {"type": type_, "status": status, "reason": reason, "message": message,
            "lastTransitionTime": when}


BACKOFF = "Job has reached the specified backoff limit"


def first_try():
    js = "first-try"
    s = jobset(js, [{"name": "workers", "replicas": 2}], {"maxRestarts": 3},
               status={"restarts": 0, "restartsCountTowardsMax": 0, "terminalState": "Completed",
                       "replicatedJobsStatus": [rjs("workers", succeeded=2)],
                       "conditions": [cond("Completed", "True", "AllJobsCompleted",
                                           "jobset completed successfully", ts(42))]})
    items = [s]
    for i in range(2):
        items.append(job(js, "workers", i, 2, 0, 0, finish=("Complete", ts(41, 30 + i))))
        items.append(pod(js, "workers", i, 0, 0, f"gpu-{i}", phase="Succeeded"))
    items.append(js_event(js, ts(42), "AllJobsCompleted", "jobset completed successfully",
                          "Normal"))
    return items


def fail_fast():
    js = "fail-fast"
    fp = {"maxRestarts": 3, "restartStrategy": "Recreate",
          "rules": [{"name": "fatal-exit", "action": "FailJobSet",
                     "onJobFailureReasons": ["PodFailurePolicy"]}]}
    pfp = {"rules": [{"action": "FailJob",
                      "onExitCodes": {"containerName": "trainer", "operator": "In",
                                      "values": [42]}}]}
    pod_obj = pod(js, "workers", 1, 0, 0, "gpu-7", phase="Failed", exit_code=42)
    msg = (f"Container trainer for pod {NS}/{pod_obj['metadata']['name']} failed with exit code "
           "42 matching FailJob rule at index 0")
    s = jobset(js, [{"name": "workers", "replicas": 2, "podFailurePolicy": pfp}], fp,
               status={"restarts": 0, "restartsCountTowardsMax": 0, "terminalState": "Failed",
                       "replicatedJobsStatus": [rjs("workers", failed=1, ready=1, active=1)],
                       "conditions": [cond("Failed", "True", "FailJobSetFailurePolicyAction",
                                           "applying FailJobSet failure policy action (first "
                                           "failed job: fail-fast-workers-1)", ts(17, 5))]})
    items = [s,
             job(js, "workers", 0, 2, 0, 0, deleting=ts(17, 5)),
             job(js, "workers", 1, 2, 0, 0, finish=("Failed", ts(17), "PodFailurePolicy", msg)),
             pod(js, "workers", 0, 0, 0, "gpu-6"), pod_obj,
             job_failed_event(js, "workers", 1, 0, ts(17), "PodFailurePolicy", msg),
             js_event(js, ts(17, 5), "FailJobSetFailurePolicyAction",
                      "applying FailJobSet failure policy action (first failed job: "
                      "fail-fast-workers-1)")]
    return items


def crashloop():
    js = "crashloop"
    fp = {"maxRestarts": 2, "restartStrategy": "Recreate"}
    final_msg = ("jobset failed due to reaching max number of restarts (first failed job: "
                 "crashloop-workers-0)")
    s = jobset(js, [{"name": "workers", "replicas": 2}], fp,
               status={"restarts": 2, "restartsCountTowardsMax": 2, "terminalState": "Failed",
                       "replicatedJobsStatus": [rjs("workers", failed=1, ready=1, active=1)],
                       "conditions": [
                           cond("RestartingJobSet", "False", "JobSetFailed", "jobset failed",
                                ts(31, 5)),
                           cond("Failed", "True", "ReachedMaxRestarts", final_msg, ts(31, 5))]})
    items = [s]
    # Attempts 0 and 1: the Jobs were deleted by the restarts; their failure events remain.
    for attempt, minute in ((0, 10), (1, 20)):
        items.append(job_failed_event(js, "workers", 0, attempt, ts(minute), "BackoffLimitExceeded",
                                      BACKOFF))
        restart_msg = ("applying RestartJobSet failure policy action (first failed job: "
                       "crashloop-workers-0)")
        items.append(js_event(js, ts(minute, 2), "DefaultFailurePolicy", restart_msg))
        items.append(js_event(js, ts(minute, 2), "RestartJobSetFailurePolicyAction", restart_msg))
        items.append(js_event(js, ts(minute + 1, 40), "JobsReady", "all jobs are ready", "Normal"))
    # Attempt 2: still present.
    items.append(job(js, "workers", 0, 2, 2, 21,
                     finish=("Failed", ts(31), "BackoffLimitExceeded", BACKOFF)))
    items.append(job(js, "workers", 1, 2, 2, 21, deleting=ts(31, 5)))
    items.append(pod(js, "workers", 0, 2, 21, "gpu-3", phase="Failed", exit_code=1))
    items.append(pod(js, "workers", 1, 2, 21, "gpu-4"))
    items.append(job_failed_event(js, "workers", 0, 2, ts(31), "BackoffLimitExceeded", BACKOFF))
    items.append(js_event(js, ts(31, 5), "ReachedMaxRestarts", final_msg))
    return items


def crashloop_early():
    """crashloop as it was at 08:15, between its first and second failure (for --watch)."""
    js = "crashloop"
    fp = {"maxRestarts": 2, "restartStrategy": "Recreate"}
    restart_msg = ("applying RestartJobSet failure policy action (first failed job: "
                   "crashloop-workers-0)")
    s = jobset(js, [{"name": "workers", "replicas": 2}], fp,
               status={"restarts": 1, "restartsCountTowardsMax": 1,
                       "replicatedJobsStatus": [rjs("workers", ready=2, active=2)],
                       "conditions": [cond("RestartingJobSet", "False", "JobsReady",
                                           "all jobs are ready", ts(11, 40))]})
    items = [s,
             job_failed_event(js, "workers", 0, 0, ts(10), "BackoffLimitExceeded", BACKOFF),
             js_event(js, ts(10, 2), "DefaultFailurePolicy", restart_msg),
             js_event(js, ts(10, 2), "RestartJobSetFailurePolicyAction", restart_msg),
             js_event(js, ts(11, 40), "JobsReady", "all jobs are ready", "Normal")]
    for i in range(2):
        items.append(job(js, "workers", i, 2, 1, 11))
        items.append(pod(js, "workers", i, 1, 11, f"gpu-{i + 3}"))
    return items


def maintenance():
    js = "maintenance"
    fp = {"maxRestarts": 1, "restartStrategy": "Recreate",
          "rules": [{"name": "restart-on-disruption",
                     "action": "RestartJobSetAndIgnoreMaxRestarts",
                     "onJobFailureReasons": ["PodFailurePolicy"]}]}
    pfp = {"rules": [{"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget"}]}]}
    old_pod = pod(js, "workers", 1, 0, 0, "gpu-12", phase="Failed", exit_code=143,
                  disruption=("TerminationByKubelet",
                              "Pod was terminated in response to imminent node shutdown."))
    msg = (f"Pod {NS}/{old_pod['metadata']['name']} has condition DisruptionTarget matching "
           "FailJob rule at index 0")
    restart_msg = ("applying RestartJobSetAndIgnoreMaxRestarts failure policy action (first "
                   "failed job: maintenance-workers-1)")
    s = jobset(js, [{"name": "workers", "replicas": 2, "podFailurePolicy": pfp}], fp,
               status={"restarts": 1, "restartsCountTowardsMax": 0,
                       "replicatedJobsStatus": [rjs("workers", ready=1, active=1)],
                       "conditions": [cond("RestartingJobSet", "True",
                                           "FailurePolicy_restart-on-disruption", restart_msg,
                                           ts(55, 3))]})
    items = [s,
             # The failed attempt-0 Job, terminating (foreground deletion) with its Pod.
             job(js, "workers", 1, 2, 0, 0, deleting=ts(55, 4),
                 finish=("Failed", ts(55), "PodFailurePolicy", msg)),
             old_pod,
             # Attempt 1.
             job(js, "workers", 0, 2, 1, 55), pod(js, "workers", 0, 1, 55, "gpu-2"),
             job(js, "workers", 1, 2, 1, 56, ready=0),
             pod(js, "workers", 1, 1, 56, "gpu-13", phase="Pending"),
             event("Pod", old_pod["metadata"]["name"], ts(54, 50), "Killing",
                   "Stopping container trainer", "Normal", source="kubelet", api="v1"),
             job_failed_event(js, "workers", 1, 0, ts(55), "PodFailurePolicy", msg),
             js_event(js, ts(55, 3), "FailurePolicy_restart-on-disruption", restart_msg),
             js_event(js, ts(55, 3), "RestartJobSetAndIgnoreMaxRestartsFailurePolicyAction",
                      restart_msg)]
    return items


def per_job():
    js = "per-job"
    fp = {"maxRestarts": 2, "restartStrategy": "Recreate",
          "rules": [{"name": "recreate-worker", "action": "RestartJob",
                     "targetReplicatedJobs": ["workers"]}]}
    old_pod = pod(js, "workers", 1, 0, 0, "gpu-9", phase="Failed", exit_code=137,
                  exit_reason="OOMKilled", job_attempt=0)
    s = jobset(js, [{"name": "workers", "replicas": 3}], fp,
               status={"restarts": 0, "restartsCountTowardsMax": 0,
                       "replicatedJobsStatus": [rjs("workers", ready=3, active=3,
                                                    jobRestarts=[0, 1, 0],
                                                    jobRestartsCountTowardsMax=[0, 1, 0])]})
    items = [s]
    for i in (0, 2):
        items.append(job(js, "workers", i, 3, 0, 0, job_attempt=0))
        items.append(pod(js, "workers", i, 0, 0, f"gpu-{i}", job_attempt=0))
    items.append(job(js, "workers", 1, 3, 0, 33, job_attempt=1))
    items.append(pod(js, "workers", 1, 0, 33, "gpu-10", job_attempt=1))
    items.append(job_failed_event(js, "workers", 1, 0, ts(32), "BackoffLimitExceeded", BACKOFF,
                                  job_attempt=0))
    # The old Pod's kubelet event survives the Job's deletion.
    items.append(event("Pod", old_pod["metadata"]["name"], ts(31, 58), "OOMKilling",
                       "Memory cgroup out of memory: Killed process 4242 (python)",
                       source="kernel-monitor", api="v1"))
    items.append(js_event(js, ts(32, 2), "RestartJobFailurePolicyAction",
                          "applying RestartJob failure policy action (first failed job: "
                          "per-job-workers-1)"))
    return items


def in_place():
    js = "in-place"
    fp = {"maxRestarts": 3, "restartStrategy": "InPlaceRestart"}
    s = jobset(js, [{"name": "workers", "replicas": 2, "backoffLimit": 2147483647,
                     "podReplacementPolicy": "Failed"}], fp,
               status={"restarts": 0, "restartsCountTowardsMax": 0,
                       "currentInPlaceRestartAttempt": 1, "previousInPlaceRestartAttempt": 0,
                       "replicatedJobsStatus": [rjs("workers", ready=2, active=2)]})
    ann = {"jobset.sigs.k8s.io/in-place-restart-attempt": "1"}
    items = [s, job(js, "workers", 0, 2, 0, 0), job(js, "workers", 1, 2, 0, 0),
             pod(js, "workers", 0, 0, 0, "gpu-20", restart_count=1, annotations=ann,
                 last_exit=(1, "Error", ts(14))),
             pod(js, "workers", 1, 0, 0, "gpu-21", restart_count=1, annotations=ann,
                 last_exit=(143, "Error", ts(14, 1)))]
    return items


def bad_template():
    js = "bad-template"
    fp = {"maxRestarts": 3}
    s = jobset(js, [{"name": "workers", "replicas": 2}], fp,
               status={"restarts": 0, "restartsCountTowardsMax": 0,
                       "replicatedJobsStatus": [rjs("workers")]})
    note = "\n".join(
        f'job "bad-template-workers-{i}" creation failed with error: Job.batch '
        f'"bad-template-workers-{i}" is invalid: spec.template.spec.containers[0].image: '
        "Required value" for i in range(2))
    ev = event("JobSet", js, ts(0, 1), "JobCreationFailed", note, obj_uid=uid("jobset", js))
    ev["count"] = 14
    ev["lastTimestamp"] = ts(9)
    return [s, ev]


def queued():
    js = "queued"
    fp = {"maxRestarts": 3}
    s = jobset(js, [{"name": "workers", "replicas": 2}], fp, suspend=True,
               status={"restarts": 0, "restartsCountTowardsMax": 0,
                       "replicatedJobsStatus": [rjs("workers", suspended=2)],
                       "conditions": [cond("Suspended", "True", "SuspendedJobs",
                                           "jobset is suspended", ts(0))]})
    items = [s]
    for i in range(2):
        items.append(job(js, "workers", i, 2, 0, 0, suspend=True))
    return items


CASES = {
    "first-try": first_try,
    "fail-fast": fail_fast,
    "crashloop": crashloop,
    "crashloop-early": crashloop_early,
    "maintenance": maintenance,
    "per-job": per_job,
    "in-place": in_place,
    "bad-template": bad_template,
    "queued": queued,
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, make in CASES.items():
        items = make()
        # kubectl prints the kinds in the order asked: jobsets, jobs, pods, events.
        order = {"JobSet": 0, "Job": 1, "Pod": 2, "Event": 3}
        items.sort(key=lambda o: order[o["kind"]])
        dump = {"apiVersion": "v1", "kind": "List", "items": items,
                "metadata": {"resourceVersion": ""}}
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(dump, f, indent=4)
            f.write("\n")


if __name__ == "__main__":
    main()
