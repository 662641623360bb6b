// What every kind's `why` reads from a workload dump (workload_dump.h) besides the objects
// themselves: conditions, the events and the times they carry, integers written as strings
// (annotations), and why a Pending Pod waits. Shared by JobSet, Volcano Job and Framework so
// that the three diagnoses read a dump the same way. Never throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "validation/core/node.h"

namespace jobset {

/// The first entry of `object`'s status.conditions of `type` with status "True", or nullptr.
const Node* TrueCondition(const Node& object, std::string_view type);

/// The object an event is about: involvedObject (core/v1 Event) or regarding (events.k8s.io/v1),
/// nullptr when it names neither.
const Node* EventSubject(const Node& event);

/// An event's text: message (core/v1), else note (events.k8s.io/v1); "" when neither.
std::string_view EventNote(const Node& event);

/// A Kubernetes timestamp (ParseKubeTime) as seconds since the epoch; 0 when it is not one.
int64_t KubeTimeSeconds(std::string_view time);

/// Whether time `a` comes before time `b`: by their instants when both are Kubernetes
/// timestamps, else by their text.
bool KubeTimeBefore(std::string_view a, std::string_view b);

/// The seconds from `from` to `to` when both are Kubernetes timestamps and `to` is not earlier;
/// false otherwise.
bool KubeTimeSpan(std::string_view from, std::string_view to, int64_t* seconds);

/// An integer, or a string holding one (annotations and labels are strings); false and `*out`
/// untouched otherwise.
bool IntOrStringValue(const Node* n, int64_t* out);

/// " on node NAME" from a Pod's spec.nodeName, "" when it has none.
std::string OnNodeWords(const Node& pod);

/// Why a Pod is not scheduled: "REASON: MESSAGE" of its (last) PodScheduled=False condition,
/// "" when it has none.
std::string UnscheduledReason(const Node& pod);

}  // namespace jobset
